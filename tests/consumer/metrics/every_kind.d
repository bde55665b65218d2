/* Every aggregating function, key kind and label escape that OpenMetrics output knows, for
   tests/consumer/metrics_test.cpp's golden every_kind.om (which promtool checks too). */
#pragma D option metrics_labels=@bytes:file;@two:fd,op

BEGIN
{
	@calls["read"] = count();
	@calls["read"] = count();
	@calls["write"] = count();
	@bytes["quote\" back\\slash\nnewline"] = sum(10);
	@bytes["plain"] = sum(32);
	@balance[(int64_t)-1] = sum(-5);
	@balance[(int64_t)9223372036854775807] = sum(7);
	@low = min(-3);
	@low = min(7);
	@high = max(-9223372036854775807 - 1);
	@mean = avg(1);
	@mean = avg(2);
	@spread = stddev(2);
	@spread = stddev(4);
	@spread = stddev(4);
	@spread = stddev(4);
	@spread = stddev(5);
	@spread = stddev(5);
	@spread = stddev(7);
	@spread = stddev(9);
	@sizes = quantize(-2);
	@sizes = quantize(0);
	@sizes = quantize(1);
	@sizes = quantize(3);
	@sizes = quantize(3);
	@sizes = quantize(1024);
	@linear = lquantize(-5, 0, 10, 5);
	@linear = lquantize(3, 0, 10, 5);
	@linear = lquantize(12, 0, 10, 5, 2);
	@log = llquantize(0, 10, 0, 1, 10);
	@log = llquantize(7, 10, 0, 1, 10);
	@log = llquantize(50, 10, 0, 1, 10);
	@log = llquantize(150, 10, 0, 1, 10);
	@two[(uint8_t)3, "open"] = count();
	@two[(uint8_t)255, "close"] = count();
	@ = count();
	@reset["x"] = count();
}

BEGIN
/0/
{
	@empty[probename] = count();
}

END
{
	clear(@reset);
}
