/*
 * A string plus an integer, either way round, is the string from that byte on, as dtrace-utils
 * adds to a string's address: up to the NUL it is "", and NULL + n faults at n.
 */
#pragma D option quiet

BEGIN
{
	s = "abcdef";
	n = 2;
	printf("[%s] [%s] [%s] [%s] [%s]\n", s + 1, n + s, s + 6, s + 0, (s + 1) + 1);
}

BEGIN
{
	s = NULL;
	printf("[%s]\n", s + 3);
}

BEGIN
{
	exit(0);
}
