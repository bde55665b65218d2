/* setopt() takes effect in the consumer where its record is, as libdtrace's does: each printa()
   sorts as the options before it say. "false" and "no" turn a toggle off. */
#pragma D option quiet
BEGIN
{
	@a["b"] = sum(1);
	@a["a"] = sum(3);
	@a["c"] = sum(2);
	printa("%s %@d\n", @a);
	setopt("aggsortkey");
	printf("by key\n");
	printa("%s %@d\n", @a);
	setopt("aggsortrev");
	printf("by key, reversed\n");
	printa("%s %@d\n", @a);
	setopt("aggsortkey", "false");
	setopt("aggsortrev", "no");
	printf("by value again\n");
	printa("%s %@d\n", @a);
	exit(0);
}
