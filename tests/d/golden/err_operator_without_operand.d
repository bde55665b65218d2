BEGIN
{
	i = 0;
}

BEGIN
/i < != > 10/
{
	trace(i);
}
