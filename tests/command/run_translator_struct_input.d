/*
 * A translator from a struct itself (not a pointer to one), whose members cast their input to
 * its own type, as dtrace-utils' translators tests write them; and an array member cast to a
 * pointer is the member's address.
 */
#pragma D option quiet

struct in {
	int i;
	char c[4];
};

struct out {
	int twice;
	char first;
};

translator struct out < struct in v > {
	twice = ((struct in)v).i * 2;
	first = v.c[0];
};

struct in f;

BEGIN
{
	f.i = 21;
	f.c[0] = 'z';
	printf("%d %c\n", xlate<struct out>(f).twice, xlate<struct out>(f).first);
	x = xlate<struct out>(f);
	printf("%d %c\n", x.twice, x.first);
	printf("%s\n", stringof((char *)f.c));
	exit(0);
}
