BEGIN
{
	i = 1;
	trunc(i);
}
