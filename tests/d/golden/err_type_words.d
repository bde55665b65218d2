/* Type words taken one by one as DTrace's declaration parser takes them. */
BEGIN { x = (char int)0; }
BEGIN { x = (double double)0; }
BEGIN { x = (char long)0; }
BEGIN { x = sizeof(unsigned void); }
BEGIN { x = (unsigned float)0; }
BEGIN { x = (long string)0; }
BEGIN { x = (long short)0; }
BEGIN { x = (signed unsigned int)0; }
BEGIN { x = (long long long)0; }
BEGIN { x = sizeof(unsigned long long) + sizeof(short int) + (signed char)0 + sizeof(unsigned long long int) + sizeof(unsigned); }
short void v;
typedef char int ci_t;
