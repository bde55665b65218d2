BEGIN
{
	@a = sum("text");
}
