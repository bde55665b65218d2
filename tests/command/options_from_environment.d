BEGIN
{
	printf("%d %d\n", VALUE, OTHER);
	exit(0);
}
