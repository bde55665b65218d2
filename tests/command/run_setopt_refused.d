/* A setopt() the consumer refuses is a fault of its clause, as libdtrace reports it (its message
   ends in a newline of its own), and the run goes on with the options as they were. */
#pragma D option quiet
BEGIN
{
	setopt("nosuchoption");
	setopt("quiet", "perhaps");
	setopt("switchrate", "0.5hz");
	setopt("bufsize", "1m");
	printf("still quiet, and running\n");
	exit(0);
}
