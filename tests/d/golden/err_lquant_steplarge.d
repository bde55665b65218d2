BEGIN
{
	@a = lquantize(1, 0, 10, 11);
}
