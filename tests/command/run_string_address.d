/*
 * A string where a char pointer is wanted, as dtrace-utils takes one: assigned to a char *
 * variable or cast, it is the address of its bytes, which are zero to its last byte (strsize);
 * NULL's address is 0.
 */
#pragma D option quiet

char *p;

BEGIN
{
	s = "hello";
	p = s;
	q = (char *)"abc";
	printf("%c %c %c %d\n", p[1], q[2], ((char *)probename)[0], p[255]);
	printf("%d\n", (char *)strstr("a", "b") == 0);
	p = probeprov;
	exit(p[0] == 'd' ? 0 : 1);
}
