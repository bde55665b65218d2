tick-1ms
{
	@a = count();
	@b = sum(arg0);
	@c = min(arg0);
	@d = max(arg0);
	@e = avg(arg0);
	@f = stddev(arg0);
	@g = quantize(arg0);
	@h = quantize(arg0, 3);
	@i = lquantize(arg0, -10, 10);
	@j = lquantize(arg0, 0, 100, 10);
	@k = lquantize(arg0, 0, 100, 10, -2);
	@l = llquantize(arg0, 10, 0, 6, 20);
	@m = llquantize(arg0, 2, 0, 4, 4, 7);
	@[probename] = count();
}
