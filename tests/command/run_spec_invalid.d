/* A speculation past nspec is an illegal operation, reported as DTrace reports faults. */
#pragma D option quiet
#pragma D option nspec=8

BEGIN
{
	commit(1024);
}

BEGIN
{
	printf("seen\n");
	exit(0);
}
