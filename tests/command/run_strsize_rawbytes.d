/* rawbytes dumps a string's record, strsize + 1 bytes: at most strsize characters, then NULs. */
#pragma D option quiet
#pragma D option rawbytes
#pragma D option strsize=9

BEGIN
{
	trace("abcdefghijkl");
	trace(strjoin(probeprov, probename));
	trace(substr("abcdefghijkl", 2));
	trace("");
	exit(0);
}
