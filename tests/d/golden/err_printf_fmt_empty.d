BEGIN
{
	printf("");
}
