inline int A = 1, B = 2;
int x, y z;
struct t { int a, ; };
struct u { int i; } k, ;
BEGIN { exit(0); }
