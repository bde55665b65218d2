BEGIN
/rand(/

{
	trace(epid);
}
