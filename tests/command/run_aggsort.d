/* aggsortkey and aggsortrev shape the order of the output at exit. */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortrev
BEGIN
{
	@[1, "b"] = sum(10);
	@[2, "a"] = sum(30);
	@[3, "c"] = sum(20);
	exit(0);
}
