/* bcopy() evaluates its arguments in order, then checks them, as DTrace does: the source is
   src + 2, the destination dst + 3, the size 4; a size too big faults after all three ran. */
#pragma D option quiet

BEGIN
{
	src = (char *)alloca(8);
	dst = (char *)alloca(8);
	bcopy("abcdefgh", src, 8);
	bcopy("........", dst, 8);
	n = 2;
	bcopy((void *)(src + (n++)), (void *)(dst + (n++)), (n++));
	printf("%c%c%c%c%c%c%c%c n %d\n", dst[0], dst[1], dst[2], dst[3], dst[4], dst[5], dst[6], dst[7], n);
}

BEGIN
{
	bcopy((void *)(src + (n++)), (void *)(dst + (n++)), (n++) * 1000);
}

BEGIN
{
	printf("n %d after the fault\n", n);
	exit(0);
}
