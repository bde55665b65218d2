#pragma D option aggsortkey
BEGIN
{
	@c["x"] = count();
	@s["x"] = sum(5);
	printf("%s %d %u %x %5.2d %-10s|%c\n", "a", 1, 2, 255, 3, "b", 'c');
	printf("%*d %.*s\n", 5, 1, 2, "abc");
	printa(@c);
	printa("%s %@d %@d\n", @c, @s);
	trace(1);
	trace("str");
	trace((char)1);
	clear(@c);
	trunc(@c);
	trunc(@s, 10);
	normalize(@s, 2);
	denormalize(@s);
	setopt("quiet");
	setopt("bufsize", "4m");
	stack();
	ustack(5);
	exit(0);
}
