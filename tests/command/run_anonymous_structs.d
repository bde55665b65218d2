/* Structs and unions without a tag, written where a type name stands: as variables' types (every
   scope, with stars and brackets), as a named member's type, and as a typedef's. The names of one
   declaration share its type: a whole one is assigned from another. */
#pragma D option quiet
struct { int a; long b; } x, y, *xp, xa[2];
self union { char c; int i; } su;
this struct { int a; } val;
struct s { struct { int a; char n[3]; } in; union { short h; long l; } u; int *p; } r;
typedef struct { int q; struct { long z; } deep; } t_t;
typedef union { int a; long b; } *u_p;
t_t tv;
u_p up;

BEGIN
{
	x.a = -1;
	x.b = 9223372036854775807;
	y = x;
	x.a = 0;
	xa[1].b = -9223372036854775807 - 1;
	self->su.i = 0x41424344;
	this->val.a = 7;
	r.in.a = 2147483647;
	r.in.n[2] = 'z';
	r.u.h = -2;
	tv.deep.z = -3;
	printf("%d %d %d %d %d\n", y.a, y.b, x.a, xa[0].b, xa[1].b);
	printf("%c %d %d %c %d %d %d\n", self->su.c, this->val.a, r.in.a, r.in.n[2], r.u.h, tv.q, tv.deep.z);
	printf("%d %d %d %d %d %d %d\n", sizeof(x), sizeof(r), sizeof(t_t), sizeof(tv.deep), sizeof(*xp),
	    sizeof(up), sizeof(*up));
	exit(0);
}
