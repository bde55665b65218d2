/* scratchsize=61 gives a clause 64 bytes (rounded up to 8, as dtrace-utils rounds it): alloca(64) takes them all. */
#pragma D option quiet
#pragma D option scratchsize=61

BEGIN
{
	p = (char *)alloca(64);
	p[63] = 'x';
	printf("%c\n", p[63]);
	exit(0);
}
