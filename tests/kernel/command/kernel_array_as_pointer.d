/* A kernel struct's array member where a pointer is wanted, or cast to one, is its address (it
   was read as one). */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(16);
	bcopy(curthread->comm, p, 16);
	printf("%d\n", stringof(p) == execname);
	tracemem(curthread->comm, 4);
	printf("%d\n", stringof((char *)curthread->comm) == execname);
	exit(0);
}
