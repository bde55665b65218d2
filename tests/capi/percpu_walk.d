/*
 * Seed 000's stddev() samples from two threads, so that aggpercpu has two parts to show: BEGIN
 * runs on the consumer's thread, tick-1ms on the timer's.
 */
#pragma D option quiet
#pragma D option aggpercpu

BEGIN
{
	done = 0;
	@c["foo"] = stddev(1);
	@c["foo"] = stddev(2);
	@c["bar"] = stddev(6);
	@c["bar"] = stddev(8);
	@c["bar"] = stddev(10);
}

tick-1ms
/!done/
{
	done = 1;
	@c["foo"] = stddev(3);
	@c["baz"] = stddev(17);
	@c["baz"] = stddev(23);
	exit(0);
}
