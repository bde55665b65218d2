/* sizeof and casts of a struct, union or enum written in place, as DTrace's grammar allows: each a
   type of its own, laid out as DTrace lays it out (no padding after the last member); an enum's
   enumerators are declared where it is written. Also as a typedef's and a member's type (an
   anonymous enum). */
#pragma D option quiet
typedef enum { TA, TB = 5 } e_t;
struct s { enum { MA = -2147483647 - 1, MB } m; char c; };

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof(struct { char c; long l; }), sizeof(union { char c[3]; short h; }),
	    sizeof(struct { int a; } *), sizeof(struct { char c[7]; struct { char d; } in; }),
	    sizeof(union { long l; struct { int a; int b; int c; } s; }));
	printf("%d %d %d %d\n", sizeof(enum { EA, EB = 2147483647 }), EA, EB, sizeof(e_t));
	printf("%d %d %d %d %d\n", TA, TB, MA, MB, sizeof(struct s));
	this->p = (struct { long a; int b; } *)alloca(16);
	this->p->a = -9223372036854775807 - 1;
	this->p->b = -5;
	printf("%d %d %d\n", this->p->a, this->p->b, sizeof(*this->p));
	printf("%d\n", ((union { long l; char c[8]; } *)this->p)->c[7] & 0xff);
	exit(0);
}
