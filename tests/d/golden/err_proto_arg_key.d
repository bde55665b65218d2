BEGIN
{
	@a[1] = count();
	@a["one"] = count();
}
