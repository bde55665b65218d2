BEGIN
{
	trace(epid);
