BEGIN
{
	printa("%d\n", 3);
}
