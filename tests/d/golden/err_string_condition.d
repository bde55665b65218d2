/* A string is no scalar: DTrace refuses it as a condition, as it would a char array. */
string s;
char name[8];
BEGIN { x = "boo" ? 1 : 0; }
BEGIN { x = "char" && "foo"; }
BEGIN { x = !s; }
BEGIN /s/ { x = 1; }
BEGIN /name/ { x = 1; }
