BEGIN
{
	c = 1LU;
}
