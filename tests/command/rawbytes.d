/* rawbytes: trace() dumps each record's bytes (integers in memory order, strings with their NUL
   padding), quiet or not; string keys of printa() are dumped too, integer keys and printf() are
   not. */
#pragma D option rawbytes
#pragma D option strsize=8

BEGIN
{
	trace(1);
	trace((char)-1);
	trace((short)258);
	trace(-9223372036854775807LL - 1);
	trace("");
	trace("abcdefghij");
	printf("[%s %d]", "text", 5);
	@a["k", 7] = count();
}

BEGIN
{
	exit(0);
}
