/* An inline of a struct or union type names the object it is defined as: r2.i is r1.i. */
#pragma D option quiet

struct r {
	char c;
	int i;
} r1;

union u {
	char c;
	int i;
} u1;

inline struct r r2 = r1;
inline union u u2 = u1;

BEGIN
{
	r1.i = 10;
	r1.c = 'c';
	u1.c = 'd';
	printf("%c %d %c\n", r2.c, r2.i, u2.c);
	copy = r2;
	printf("%d\n", copy.i);
	exit(0);
}
