#pragma D option ustackframes=7
#pragma D option maxframes=30
BEGIN
{
	@kernel[stack()] = count();
	@user[ustack(), execname] = count();
	@deep[stack(100)] = count();
	printf("%k %-4k\n", stack(2), ustack(1));
	trace(execname);
	ustack(3, 64);
}
