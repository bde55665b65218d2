BEGIN
{
	@a = count(;
}
