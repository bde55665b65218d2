/* -x oformat=folded: keys become frames (root first), counts the printed values. */
#pragma D option quiet

BEGIN
{
	@calls["main", "parse"] = count();
	@calls["main", "parse"] = count();
	@calls["main", "eval"] = count();
	@calls["semi;colon", "x"] = count();
	@bytes[3, "write"] = sum(100);
	@bytes[-1, "read"] = sum(-7);
	@bytes[0, "zero"] = sum(0);
	@total = count();
	@latency["disk"] = quantize(1);
	@latency["disk"] = quantize(1000);
	@net["eth0"] = lquantize(5, 0, 10, 1);
	@empty["never"] = count();
	trunc(@empty);
	printa(@total);
	printf("printf stays text\n");
	exit(0);
}
