BEGIN
{
	@foo[1] = count();
	@bar["x"] = count();
	printa(@foo, @bar);
}
