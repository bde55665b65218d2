/* A clause whose actions read a variable that only its predicate creates is checked again
   predicate first, as DTrace does; one whose predicate reads what its actions create is checked
   actions first. epid is the clause's. */
#pragma D option quiet

BEGIN
/x++ == 0/
{
	printf("x %d, epid %d\n", x, epid);
}

BEGIN
/(this->a = epid) || 1/
{
	printf("this->a %d, epid %d\n", this->a, epid);
}

BEGIN
/y == 0/
{
	y = 1;
	printf("y %d, epid %d\n", y, epid);
}

BEGIN
{
	exit(0);
}
