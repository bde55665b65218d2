/* One byte past scratchsize=61 rounded up to 8. */
#pragma D option scratchsize=61

BEGIN
{
	alloca(65);
}
