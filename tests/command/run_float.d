/* float and double as dtrace-utils has them: declared, read, compared, keyed and printed with
 * %e %f %g %E %G; never assigned. Unassigned ones are zero. */
#pragma D option quiet

float f;
double d;
self float sf;
int counts[float, double];

struct pair {
	char c;
	float f;
	double d;
};

BEGIN
{
	printf("[%e] [%E] [%f] [%g] [%G]\n", f, f, f, f, f);
	printf("[%e] [%E] [%f] [%g] [%G]\n", d, d, d, d, d);
	printf("[%12.3e] [%-10f|] [%+f] [% f] [%#g] [%010.2f] [%*.*f]\n", f, d, f, d, f, d, 8, 1, f);
	printf("%d %d %d %d %d %d\n", f == f, f != f, f < f, d <= d, d > d, d >= d);
	printf("%d %d %d %d\n", sizeof (f), sizeof (double), sizeof (struct pair), offsetof(struct pair, d));
	printf("%f %f\n", (float)f, f == f ? self->sf : f);
	(void)d;
	trace(f);
	trace(d);
	printf("\n");
	counts[f, d]++;
	printf("%d\n", counts[f, d]);
	@a[f, d] = count();
	@b[d] = sum(2);
	printa(@a);
	printa("%f %e %@d\n", @a);
	printa("%g:%@d\n", @b);
	exit(0);
}
