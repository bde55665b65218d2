struct in { int a; };
struct s { struct in in; long l; } rec;
struct t { int a; } other;
BEGIN
{
	p = (struct s *)alloca(sizeof(struct s));
	*p = 1;
	*p = other;
	p->in += rec.in;
	p->in++;
}
