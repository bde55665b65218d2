/* What D refuses of floats, with dtrace-utils' tags: no constants, no arithmetic, no
 * assignment (not even of a float to a float), no conversion but to its own type or void. */
float f;
double d;
int i;

BEGIN
{
	x = 1.5;
	y = f;
	i = f;
	i += f;
	i *= f;
	i %= f;
	z = f + 1;
	z = d * 2;
	z = f & 1;
	z = -f;
	z = !f;
	f++;
	z = f == d;
	z = f < i;
	z = f && i;
	z = i ? f : d;
	z = f ? 1 : 2;
	z = (int)f;
	z = (double)f;
	z = (float)1;
	z = stringof(f);
	z = lltostr(f);
	printf("%d", f);
	printf("%Lf", d);
	printf("%f", i);
	@s = sum(f);
	@q = quantize(1, d);
	a[f] = 1;
	a[d] = 2;
	@k[f] = count();
	@k[d] = count();
	printa("%@e\n", @k);
	@c = sum(1);
	printa("%@G\n", @c);
}

BEGIN
/f/
{
}
