/* Several variables in one declaration, each with its own '*' as C binds them: `char *p, q`
   declares a pointer and a char. Members too: `long l, m;` in a struct. */
#pragma D option quiet
int a, b, zero;
self long x, y;
this char *p, q;
struct s { int i; long l, m; char *c, d; } r, *rp;

BEGIN
{
	a = 2147483647;
	b = -2147483647 - 1;
	self->x = 9223372036854775807;
	self->y = -9223372036854775807 - 1;
	this->q = 'z';
	this->p = 0;
	r.l = -1;
	r.m = 42;
	r.d = 'd';
	rp = 0;
	printf("%d %d %d %d %d %c %d\n", a, b, zero, self->x, self->y, this->q, this->p);
	printf("%d %d %d %c %d\n", r.i, r.l, r.m, r.d, rp);
	printf("%d %d %d %d %d %d\n", sizeof(this->p), sizeof(this->q), sizeof(r), sizeof(rp),
	    sizeof(r.c), sizeof(r.d));
	exit(0);
}
