/* inet_ntoa6() and inet_ntop() of AF_INET6 fault on an address they cannot read, and their text
   is cut at strsize characters (16 here). */
#pragma D option quiet
#pragma D option strsize=16

BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = -1;
	this->a[1] = -1;
	this->b = (uint64_t *)alloca(16);
	this->b[0] = 0;
	this->b[1] = htonll(0x0000ffff0a0b0c0d);
	af = AF_INET6;
	printf("[%s] [%s] [%s] [%s]\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntop(af, this->a),
	    inet_ntop(af, this->b), inet_ntoa6((struct in6_addr *)this->b));
}

BEGIN
{
	trace(inet_ntoa6(NULL));
}

BEGIN
{
	trace(inet_ntop(af, (void *)16));
}

BEGIN
{
	trace(inet_ntop(AF_INET6, (void *)-1));
}

ERROR
{
	printf("clause %d fault %d value %d\n", arg2, arg4, arg5);
}

BEGIN
{
	exit(0);
}
