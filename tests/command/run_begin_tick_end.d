/* BEGIN, tick-N (tick-100: a listed rate, whose id is the same in both engines) and END in order; exit()'s status; aggregations printed at the end. */
BEGIN
{
	printf("hello %s %d\n", "world", 42);
	@c["a"] = count();
	@c["b"] = count();
	@c["a"] = count();
	@q = quantize(7);
	@s = sum(-5);
	i = 0;
}

tick-100
/i++ < 3/
{
	trace(i);
}

tick-100
/i >= 3/
{
	printa("%s %@d\n", @c);
	exit(3);
}

END
{
	trace("end");
}
