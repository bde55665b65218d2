/* cpp runs as ISO C (-std=c99) unless -Xs, as dtrace-utils runs it: glibc's <endian.h> then
   defines the byte orders without its GNU static inline functions, which are not D. */
#include <endian.h>

#pragma D option quiet

BEGIN
{
#if __BYTE_ORDER == __LITTLE_ENDIAN
	printf("%x\n", htonl(0x12345678));
#else
	printf("%x\n", htonl(0x78563412));
#endif
#ifdef __STRICT_ANSI__
	printf("ISO C\n");
#endif
	exit(0);
}
