struct { int a, a; } x, y;
union { struct nosuch n; } w;
struct { void v; } vv;
struct { int a; } p, q;
struct { int a; } o;
struct { int a; } **pp;
BEGIN
{
	p = q;
	p = o;
	o.b = 1;
	o = 1;
}
