/* Floats are bits: they load, record and key as unsigned integers of their size, and compare
 * through a key that orders as the float does. */
float f;
double d;
this double td;

BEGIN
{
	printf("%f %e %g\n", f, d, this->td);
	trace(f);
	@[f, d] = count();
	x = f < f;
	y = d == d;
	printf("%G\n", 1 ? f : f);
}
