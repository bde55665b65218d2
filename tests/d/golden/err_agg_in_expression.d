BEGIN
{
	@a = count();
	x = @a + 3;
}
