BEGIN
{
	a = $1;
	b = $$2;
	c = $3 + 1;
	d = $target;
	printf("%d %s\n", a, b);
}
