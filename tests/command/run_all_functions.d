/* Every aggregating function, printed at exit in dtrace(1)'s default order. */
#pragma D option quiet
BEGIN
{
	@count = count();
	@count = count();
	@sum = sum(-7);
	@sum = sum(3);
	@min = min(5);
	@min = min(-9223372036854775807 - 1);
	@max = max(5);
	@max = max(9223372036854775807);
	@avg = avg(0);
	@avg = avg(-900);
	@stddev = stddev(10);
	@stddev = stddev(20);
	@quantize = quantize(0);
	@quantize = quantize(5, 3);
	@lquantize = lquantize(7, 0, 10, 3);
	@lquantize = lquantize(-1, 0, 10, 3);
	@llquantize = llquantize(95, 10, 0, 2, 20);
	exit(0);
}
