BEGIN
{
	@a = count();
}

END
{
	@a[1] = sum(3);
}
