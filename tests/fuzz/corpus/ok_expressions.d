BEGIN
{
	a = 1 + 2 * 3 - 4 / 2 % 3;
	b = (1 << 4) | 0x0f & ~0 ^ 7;
	c = a > b ? a : b;
	d = !a || b && c ^^ a;
	e = -a + +b;
	f = 'A';
	g = 0777 + 0xffUL + 10u + 20l + 30ll;
	h = sizeof(int) + sizeof(uint64_t) + sizeof(a);
	i = (char)300 + (unsigned short)-1 + (int64_t)a;
	a += 2; a -= 1; a *= 3; a /= 2; a %= 5; a <<= 1; a >>= 1; a &= 7; a |= 8; a ^= 1;
	a++; ++a; a--; --a;
	s = "hello";
	t = strjoin(s, " world");
	u = strlen(t) + index(t, "o") + rindex(t, "o", 3);
	v = substr(t, 1, 3);
	w = lltostr(12345);
	x = stringof(42);
	exit(0);
}
