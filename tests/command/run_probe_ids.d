/* dtrace's probes are BEGIN 1, END 2, ERROR 3 whatever order the clauses name them in (dtrace-utils' ids). */
#pragma D option quiet

int zero;

ERROR
{
	printf("ERROR %d arg1 %d\n", id, arg1);
}

END
{
	printf("END %d\n", id);
}

BEGIN
{
	printf("BEGIN %d\n", id);
}

BEGIN
{
	x = 1 / zero;
}

BEGIN
{
	exit(0);
}
