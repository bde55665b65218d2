/* normalize, denormalize, trunc and clear act in order with printa. */
#pragma D option quiet
BEGIN
{
	@s["a"] = sum(1000);
	@s["b"] = sum(3000);
	@s["c"] = sum(2000);
	normalize(@s, 1000);
	printa("normalized %s %@d\n", @s);
	denormalize(@s);
	printa("denormalized %s %@d\n", @s);
	trunc(@s, 2);
	printa("two largest %s %@d\n", @s);
	clear(@s);
	printa("cleared %s %@d\n", @s);
	trunc(@s);
	printa("truncated %s %@d\n", @s);
	@m["x"] = min(3);
	clear(@m);
	printa("cleared min %s %@d\n", @m);
	exit(0);
}
