BEGIN
{
	printf("%d %d %d %d\n", 1, 2, 3);
}
