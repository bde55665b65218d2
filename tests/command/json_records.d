/* -x oformat=json: each firing one line, its records typed; strings escaped for any byte. */
BEGIN
{
	printf("quote \" backslash \\ tab \t bell \a end\n");
	printf("%d %s", -9223372036854775807 - 1, "x");
	trace(9223372036854775807);
	trace((unsigned long)-1);
	trace((char)-2);
	trace((unsigned char)254);
	trace(0);
	trace("ctl \001\037 del \177");
	trace("bad \377\300 utf8 caf\303\251");
	trace("");
}

BEGIN
{
	exit(7);
}
