BEGIN
{
	@a = llquantize(1, 10, 0, 6, 20);
	@a = llquantize(2, 10, 0, 7, 20);
}
