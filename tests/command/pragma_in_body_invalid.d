/* A bad control line inside a clause is reported at its line. */
BEGIN
{
#pragma D option bogus
	exit(0);
}
