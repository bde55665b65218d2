BEGIN
{
	@a = quantize(1, "two");
}
