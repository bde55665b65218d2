int a, a;
void *v, w;
this int l, m[int];
self int x, y[0];
struct s { int i, *p, i; };
