/* specsize bounds each buffer: 16 bytes a firing and its data (4 bytes an int), 44 and 52 bytes
   here; what does not fit is dropped. run_spec_size gives it 90 bytes, run_spec_size_fits 96:
   each clause runs whole, the consumer drops the second firing at 90. A firing whose own record
   does not fit ends its clause there (n is not counted): run_spec_size_record gives it 51 bytes,
   run_spec_size_none 43. */
#pragma D option quiet

BEGIN
{
	s = speculation();
	x = 100;
}

BEGIN
{
	speculate(s);
	printf("%d %d %d %d %d %d %d\n", x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6);
	n++;
}

BEGIN
{
	speculate(s);
	printf("%d %d %d %d %d %d %d %d %d\n", x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8);
	n++;
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("clauses run whole: %d\n", n);
	exit(0);
}
