BEGIN
{
	trace(x);
}
