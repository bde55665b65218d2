/*
 * The Guide's first scripts, in our words: a global set in BEGIN counted down by a tick with
 * trace(i--) (the value before the decrement is traced), the values quantized and lquantized as
 * they go, and a clause that ends the run once the count reaches zero.
 */
BEGIN
{
	left = 6;
}

tick-1000
/left > 0/
{
	trace(left--);
	@power["left, by powers of two"] = quantize(left);
	@linear["left, one by one"] = lquantize(left, 0, 6, 1);
}

tick-1000
/left == 0/
{
	trace("liftoff");
	exit(0);
}
