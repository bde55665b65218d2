BEGIN
{
	@foo[1] = count();
	@bar = count();
	printa("%d %@d %@d\n", @foo, @bar);
}
