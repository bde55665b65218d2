/*
 * A cast may name a typedef the program declared before it, alone in its brackets, as DTrace's
 * lexer knows typedef names; a name no typedef declared is an expression in brackets.
 */
#pragma D option quiet

typedef char foo;
typedef unsigned short bar;

BEGIN
{
	x = -1;
	printf("%c%c%c%c %d %d %d\n", (foo)0x67, (foo) 0x6f, (foo)0x6f, (foo)0x64, (bar)x, (bar)(x) + 1, (x));
	exit(0);
}
