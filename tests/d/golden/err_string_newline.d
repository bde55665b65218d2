BEGIN
{
	x = "not closed;
}
