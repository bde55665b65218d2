#pragma D attributes Stable
#pragma D attributes Stable/Sturdy/Common x
#pragma D attributes Stable/Stable/Common/ x
#pragma D binding 1.0 x
#pragma D binding "1.0.4096" x
#pragma D depends_on library
#pragma D depends_on kernel unix
#pragma D option quiet extra
#pragma D option "quiet"
#pragma D nosuchpragma
#pragma "quoted"
BEGIN
{
	exit(0);
}
