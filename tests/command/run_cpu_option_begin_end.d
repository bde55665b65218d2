/* -x cpu=1: BEGIN, tick-N and END fire on the one CPU traced, as DTrace fires them. */
BEGIN
{
	printf("BEGIN on %d\n", cpu);
}

tick-1ms
{
	printf("tick on %d\n", cpu);
	exit(0);
}

END
{
	printf("END on %d\n", cpu);
}
