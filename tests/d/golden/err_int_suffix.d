BEGIN
{
	a = 1ULL;
	b = 1ull + 0x10uL + 2Ll + 3u + 4L;
	c = 1ULLL;
}
