/* A description that matches no probe is a compile error in DTrace's words, at its line. */
BEGIN { exit(0); }
nosuch:::probe
{
	exit(1);
}
