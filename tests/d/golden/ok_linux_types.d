/* The Linux kernel's short type names. */
BEGIN
{
	printf("%d %d %d %d\n", (uint)-12345, (ushort)-1, (ulong)-1, sizeof(uint));
}
