/* A whole struct or union stored into memory: into alloca()'d scratch through a pointer (*p = rec,
   p->in = *q) and into a struct variable's member (other.in = p->in), its bytes copied. */
#pragma D option quiet
struct in { int a; char b; int c; };
struct s { struct in in; long l; } rec, other;
BEGIN
{
	rec.in.a = -1; rec.in.c = 2147483647; rec.l = -9223372036854775807 - 1;
	p = (struct s *)alloca(sizeof(struct s));
	*p = rec;
	rec.l = 0;
	other.in = p->in;
	q = (struct in *)alloca(sizeof(struct in));
	*q = other.in;
	p->in = *q;
	printf("%d %d %d / %d %d / %d\n", p->in.a, p->in.c, p->l, other.in.a, other.in.c, q->c);
	exit(0);
}
