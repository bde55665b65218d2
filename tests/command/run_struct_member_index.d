/* A struct variable's array member at a computed index: stored within its bytes, and bounds-checked
   as DTrace checks an array (index out of bounds, the index unsigned), in both engines. */
#pragma D option quiet
struct s { int i; short a[3]; } rec;
BEGIN { i = 2; rec.a[i] = 1; i = 3; rec.a[i] = 2; }
BEGIN { i = -1; rec.a[i] = 2; }
BEGIN { printf("%d %d\n", rec.a[2], rec.a[1]); exit(0); }
