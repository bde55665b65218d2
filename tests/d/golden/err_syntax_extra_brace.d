BEGIN
{
	trace(epid);
}
}
