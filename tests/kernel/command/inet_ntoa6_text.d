/* inet_ntoa6(), strict or not, and inet_ntop() of AF_INET6 known when compiled and at run time,
   in the kernel engine: the same text as the in-process engine's (tests/inproc/engine_test.cpp). */
#pragma D option quiet

BEGIN
{
	af = AF_INET6;
}

/* :: */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000000000000000);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* ::1 */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000000000000001);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* 1:: */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0001000000000000);
	this->a[1] = htonll(0x0000000000000000);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* eight words */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0001000200030004);
	this->a[1] = htonll(0x0005000600070008);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* a run inside */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0xfe80000000000000);
	this->a[1] = htonll(0x02144ffffe0b76c8);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* the longest run, after a shorter one */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0001000000000002);
	this->a[1] = htonll(0x0000000000000003);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* the first of two runs as long */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0001000000000002);
	this->a[1] = htonll(0x0000000000030004);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* one zero word is not a run */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0001000000020003);
	this->a[1] = htonll(0x0004000500060007);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* one zero word at the end */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0xfe123456789abcde);
	this->a[1] = htonll(0x02144ffffe0b0000);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* IPv4-mapped */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000ffff01020304);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* IPv4-mapped 0.0.0.0 */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000ffff00000000);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* IPv4-compatible */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000000001020304);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* IPv4-compatible, six zero words */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000000000010002);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* seven zero words and 2 */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000000000000002);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* five zero words and not 0xffff */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000fffe7f000001);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* five zero words and 1 */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0000000100000000);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* a run of four, then of three */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0x0000000000000000);
	this->a[1] = htonll(0x0001000000000000);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

/* all ones */
BEGIN
{
	this->a = (uint64_t *)alloca(16);
	this->a[0] = htonll(0xffffffffffffffff);
	this->a[1] = htonll(0xffffffffffffffff);
	printf("%s %s %s %s\n", inet_ntoa6((struct in6_addr *)this->a), inet_ntoa6((struct in6_addr *)this->a, 1),
	    inet_ntop(AF_INET6, this->a), inet_ntop(af, this->a));
}

BEGIN
{
	exit(0);
}
