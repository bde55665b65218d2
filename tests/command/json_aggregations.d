/* -x oformat=json: every aggregating function, its edges, and printa() as a record. */
#pragma D option quiet

BEGIN
{
	@count["a \"quoted\" key"] = count();
	@count["back\\slash"] = count();
	@count["back\\slash"] = count();
	@sum["zero"] = sum(0);
	@sum["negative"] = sum(-5);
	@sum["top"] = sum(9223372036854775807);
	@sum["bottom"] = sum(-9223372036854775807 - 1);
	@min = min(-9223372036854775807 - 1);
	@max = max(-3);
	@avg = avg(1);
	@avg = avg(2);
	@stddev = stddev(2);
	@stddev = stddev(4);
	@stddev = stddev(4);
	@stddev = stddev(4);
	@stddev = stddev(5);
	@stddev = stddev(5);
	@stddev = stddev(7);
	@stddev = stddev(9);
	@q = quantize(0);
	@q = quantize(-1);
	@q = quantize(1000);
	@q = quantize(9223372036854775807);
	@q = quantize(-9223372036854775807 - 1);
	@lq = lquantize(-5, 0, 10, 2);
	@lq = lquantize(5, 0, 10, 2);
	@lq = lquantize(100, 0, 10, 2);
	@llq = llquantize(7, 10, 0, 1, 10);
	@llq = llquantize(5000, 10, 0, 1, 10);
	@keys[1, "two", (char)-3, (unsigned short)65535, -9223372036854775807 - 1] = count();
	@empty = count();
	trunc(@empty);
	@printed["once"] = count();
	printa(@printed);
	printa("%s %@d\n", @printed);
	exit(0);
}
