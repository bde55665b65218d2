BEGIN
{
	printf("%z\n", 1);
}
