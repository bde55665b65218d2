BEGIN
{
	@a = lquantize(1, 0, 10);
	@a = lquantize(1, 1, 11);
}
