/* link_ntop(): an Ethernet address's 6 bytes and an InfiniBand one's 20, from scratch memory or a
   D array, the type a constant or known only when the probe fires; cut at strsize (24 here). A
   NULL address faults at 0, an unknown type is an illegal operation with the type. */
#pragma D option quiet
#pragma D option strsize=24

uint8_t ib[20];

BEGIN
{
	mac = (uint64_t *)alloca(sizeof(uint64_t));
	*mac = htonll(0x0010e08a715eULL << 16);
	printf("%s\n", link_ntop(ARPHRD_ETHER, mac));
	ib[0] = 0x80; ib[1] = 0x0a; ib[18] = 0xcd; ib[19] = 0xff;
	type = ARPHRD_INFINIBAND;
	printf("%s|\n", link_ntop(type, ib));
	type = ARPHRD_ETHER;
	printf("%s|\n", link_ntop(type, ib));
	printf("%d %d\n", ARPHRD_ETHER, ARPHRD_INFINIBAND);
}

BEGIN { trace(link_ntop(ARPHRD_ETHER, NULL)); }
BEGIN { trace(link_ntop(type + 6, ib)); }
BEGIN { exit(0); }

ERROR { printf("fault %d at %d\n", arg4, arg5); }
