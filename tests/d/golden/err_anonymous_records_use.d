struct { int a; } p, q;
struct { int a; } o;
BEGIN
{
	p = q;
	p = o;
	o.b = 1;
	o = 1;
}
