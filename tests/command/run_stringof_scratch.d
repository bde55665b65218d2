/* stringof() of a pointer into alloca()'d memory reads up to the NUL within the bytes taken; a string running past them is an invalid size, one starting past them an invalid address (as a load). */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	p = (char *)alloca(8);
	p[0] = 'a'; p[1] = 'b'; p[2] = 'c';
	printf("[%s] [%s] [%s]\n", stringof(p), stringof(p + 1), stringof((char *)alloca(4)));
	p[3] = 'd'; p[4] = 'e'; p[5] = 'f'; p[6] = 'g'; p[7] = 'h';
	printf("[%s]\n", stringof(p + 1));
}

BEGIN
{
	q = (char *)alloca(8);
	q[0] = 'a'; q[1] = 'b'; q[2] = 'c'; q[3] = 'd'; q[4] = 'e'; q[5] = 'f'; q[6] = 'g'; q[7] = 'h';
	printf("[%s]\n", stringof(q + 2));
}

BEGIN
{
	s = (char *)alloca(16);
	s[0] = 'x';
	trace(stringof(s + 15));
	trace(stringof(s));
	printf("\n");
	exit(0);
}
