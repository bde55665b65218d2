/* A function's prototype declares nothing D can use, but is checked as DTrace checks one. */
int f(static int);
int g(void v);
int h(int a[int]);
int i(int, void);
int j[...];
int ok(void), ok2(int a, char *b, ...), ok3();
