BEGIN
{
	trace(sizeof(ipaddr_t));
	trace(sizeof(uint64_t));
}
