struct s { int i; } rec;
struct t { int i; } other;
BEGIN
{
	a[1] = rec;
	a[2] = other;
	a[3] = 1;
	a[4] += rec;
	rec = 0;
	b[1] = 0;
	b[2] = rec;
}
