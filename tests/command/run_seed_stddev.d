/* Seed 000's stddev() program: dtrace(1)'s default output is foo 1, bar 2, baz 4. */
BEGIN
{
	@c["foo"] = stddev(1);
	@c["foo"] = stddev(2);
	@c["foo"] = stddev(3);
	@c["foo"] = stddev(4);
	@c["foo"] = stddev(5);
	@c["bar"] = stddev(6);
	@c["bar"] = stddev(8);
	@c["bar"] = stddev(10);
	@c["bar"] = stddev(12);
	@c["bar"] = stddev(14);
	@c["baz"] = stddev(17);
	@c["baz"] = stddev(20);
	@c["baz"] = stddev(23);
	@c["baz"] = stddev(26);
	@c["baz"] = stddev(29);
	exit(0);
}
