BEGIN
{
	@a[trace(1)] = count();
}
