/* -x oformat=json: tracemem()'s bytes as hex, only those shown (none for a count of 0). */
BEGIN
{
	p = (char *)alloca(4);
	p[0] = 'L'; p[1] = 0xff; p[3] = '\n';
	tracemem(p, 4);
	tracemem(p, 4, 2);
	tracemem(p, 4, 0);
	exit(0);
}
