/*
 * An array where a pointer is wanted (bcopy()'s source, tracemem()'s address) is its address, as
 * in C: a variable's and a member's alike (a member's was read as a pointer, and faulted).
 */
#pragma D option quiet

struct rec {
	int x;
	char c[8];
} v;
int a[4];

BEGIN
{
	a[1] = 5;
	v.c[0] = 'A';
	v.c[1] = 'B';
	p = (int *)alloca(16);
	bcopy(a, p, 16);
	s = (char *)alloca(8);
	bcopy(v.c, s, 8);
	printf("%d %s\n", p[1], stringof(s));
	tracemem(a, 8);
	tracemem(v.c, 4);
	exit(0);
}
