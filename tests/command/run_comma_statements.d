/* The comma operator of a statement evaluates its operands left to right, each as a statement
   of its own: assignments, then actions. */
#pragma D option quiet

BEGIN
{
	a = 1, b = a + 1, c = b * 10;
	printf("%d %d %d\n", a, b, c), printf("in order\n");
	exit(0)
}
