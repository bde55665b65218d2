BEGIN
{
	x = ;
}

END
{
	trace(epid));
	y = ;
}
