/* tracemem(): the bytes at an address dumped as dtrace-utils dumps them (offsets, 16 columns, the
   characters), a third argument showing fewer (none at 0, all when negative or larger), and a bad
   address a fault that drops the firing's data. */
#pragma D option quiet
BEGIN
{
	p = (char *)alloca(40);
	p[0] = 'L'; p[1] = 'i'; p[2] = 'n'; p[3] = 'u'; p[4] = 'x'; p[5] = '\n';
	p[16] = 0x7f; p[17] = '~'; p[31] = 0xff; p[32] = ' '; p[39] = '!';
	printf("size 1:");
	tracemem(p, 1);
	printf("size 18:");
	tracemem(p, 18);
	printf("size 40:");
	tracemem(p, 40);
	printf("shown 0:");
	tracemem(p, 14, 0);
	printf("shown 2:");
	tracemem(p, 14, 2);
	printf("shown -1:");
	tracemem(p, 14, -1);
	printf("shown 99:");
	tracemem(p, 14, 99);
	n = 17;
	printf("shown n:");
	tracemem(p, 40, n);
}
BEGIN
{
	printf("before the fault\n");
	tracemem(0, 8);
}
BEGIN
{
	exit(0);
}
