/* A member read through a NULL pointer faults at address 0, not at the member's offset, as
   dtrace-utils checks the pointer before adding the offset; through another bad pointer, at the
   member's address. */
#pragma D option quiet

struct s {
	int	a;
	int	b;
};

BEGIN
{
	p = (struct s *)0;
	trace(p->b);
}

BEGIN
{
	p = (struct s *)8;
	trace(p->b);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d at %d\n", arg4, arg5);
}
