int a, b;
self int x, y[4];
this char *p, q;
int *ip, **ipp, iv;
string names[int], one, counts[string, int];
struct s { int i; long l, m; char *c, d[3]; } r, *rp, ra[2];
BEGIN
{
	names[1] = one;
	trace(sizeof(struct s));
	trace(sizeof(this->q));
}
