struct { int a, a; } x, y;
union { struct nosuch n; } w;
struct { void v; } vv;
struct { int a; } **pp;
