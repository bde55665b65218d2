/* strsize=5: every string holds at most 5 characters and a NUL, whatever makes it (the kernel engine rounds its places up to 8 bytes). */
#pragma D option quiet
#pragma D option strsize=5

BEGIN
{
	s = "abcdefghij";
	t = s;
	printf("[%s] [%s] [%s] [%s] %d\n", s, t, "0123456789", probeprov, strlen(s));
	printf("[%s] [%s] [%s] [%s]\n", strjoin("ab", "cdefg"), strjoin(s, s), substr("abcdefg", 1), toupper(s));
	printf("[%s] [%s] [%s]\n", strchr("xyabcdef", 'a'), strrchr("abcabcabc", 'a'), strstr("zzabcdefg", "abc"));
	printf("[%s] [%s] [%s]\n", basename("/abcdefg/hijklmn"), dirname("/abcdefg/hijklmn"), cleanpath("/a/./bcdefg"));
	printf("[%s] [%s] [%s] [%s]\n", strtok("abcdefg,h", ","), lltostr(-1234567), lltostr(255, 16), stringof(987654));
	printf("[%s] [%s]\n", inet_ntoa((ipaddr_t *)alloca(4)), 1 ? "abcdefg" : "x");
	printf("%d %d %d %d\n", s == "abcde", s == "abcdexyz", strjoin(s, "z") == "abcde", s < "abcdf");
	a[s] = 1;
	printf("%d %d\n", a["abcde"], a["abcdez"]);
	@[s] = count();
	@[strjoin("ab", "cdefghi")] = count();
	trace(s);
	printf("\n");
	exit(0);
}
