/* Speculations in the order DTrace keeps them: a commit prints its buffer where it happens. */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	printf("ids %d %d %d\n", a, b, c);
}

BEGIN
{
	speculate(a);
	printf("kept by a\n");
}

BEGIN
{
	speculate(b);
	printf("kept by b, then discarded\n");
}

BEGIN
{
	printf("before the commit\n");
}

BEGIN
{
	discard(b);
}

BEGIN
{
	commit(a);
}

BEGIN
{
	printf("after the commit\n");
	d = speculation();
	printf("id again %d\n", d);
}

BEGIN
{
	discard(d);
	printf("printed after a discard\n");
}

BEGIN
{
	speculate(0);
	printf("never seen: no buffer\n");
}

BEGIN
{
	speculate(b);
	printf("never seen: b is not in use\n");
}

BEGIN
{
	speculate(-1);
	printf("never seen: no buffer is negative\n");
}

BEGIN
{
	speculate(3456710);
	printf("never seen: past nspec, dropped without a fault\n");
}

BEGIN
{
	commit(0);
	discard(2);
	commit(b);
}

BEGIN
{
	exit(0);
}
