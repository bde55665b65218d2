/*
 * The string and integer subroutines both engines run, at their edges: empty strings, results
 * cut at strsize characters, every byte that is not a letter, the byte-order and dev_t
 * subroutines over 64-bit values, integers in decimal (lltostr, stringof) up to INT64_MIN,
 * substr with every out-of-range index and count, strchr and strrchr (NULL when they find
 * nothing; the NUL itself is found).
 */
#pragma D option quiet
#pragma D option strsize=16

BEGIN
{
	empty = "";
	s = "abc";
	digits = "0123456789abcdefghij";
	x = 0x123456789abcdef0;
	dev = 0xabcdef0123456789;
}

BEGIN
{
	printf("[%s] [%s] [%s] [%s]\n", strjoin(s, "def"), strjoin(empty, s), strjoin(s, empty), strjoin(empty, empty));
	printf("[%s] [%s] [%s]\n", strjoin(digits, s), strjoin(s, digits), strjoin(strjoin(s, s), strjoin(s, s)));
	printf("[%s] [%s] [%s] [%s]\n", toupper("az-AZ{`@09\t~"), tolower("AZ-az[@\\_"), toupper(empty), tolower(digits));
	printf("[%s] [%d]\n", toupper(strjoin(digits, "xyz")), strlen(strjoin(digits, digits)));
	printf("%x %x %x %x %x %x\n", htons(x), htonl(x), htonll(x), ntohs(x), ntohl(x), ntohll(x));
	printf("%x %x %x %x %d %d\n", htons(0), htonll(1), ntohl(0xff), ntohs(0xff00), getmajor(dev), getminor(dev));
	printf("%x %x %x %x\n", getmajor(0xffffffff), getminor(0xffffffff), getmajor(0), getminor(0x100000));
	min = -9223372036854775807 - 1;
	printf("[%s] [%s] [%s] [%s] [%s]\n", lltostr(0), lltostr(-1), lltostr(123456789012345), lltostr(min), lltostr(min + 1));
	printf("[%s] [%s] [%s] [%s]\n", stringof(42), stringof((int8_t)-128), stringof(0xffffffffffffffff), strjoin(lltostr(-7), stringof(7)));
	n = -6;
	printf("[%s] [%s] [%s] [%s] [%s] [%s] [%s] [%s]\n", substr(s, n, 3), substr(s, -4, 3), substr(s, -5, 3), substr(s, -10),
	    substr(s, 3), substr(s, 1, -1), substr(s, 1, -9), substr(empty, 0));
	printf("[%s] [%s] [%s] [%s] [%s]\n", substr(s, 0), substr(s, 1, 1), substr(s, 2, 100), substr(digits, 3),
	    substr(digits, -9223372036854775807 - 1, 9223372036854775807));
	c = 'b';
	printf("[%s] [%s] [%s] [%s] [%s]\n", strchr("abcabc", c), strrchr("abcabc", c), strchr(s, 0), strrchr(s, 0),
	    strrchr(digits, 'e'));
	printf("%d %d %d %d\n", strchr(s, 'x') == NULL, strrchr(s, 'x') == NULL, strchr(empty, 'a') == NULL,
	    strrchr(empty, 'a') == NULL);
	exit(0);
}
