/*
 * Escapes in character and string constants as DTrace's lexer decodes them: C's, but \' and \?
 * stay a backslash and the character, as does an escape C does not have; \x takes every hex
 * digit after it; up to three octal digits; a character constant's bytes make one integer,
 * the first the most significant.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", 'a', '\"', '\\', '\x4E', '\x0041');
	printf("%d %d %d %d %d\n", '\?', '\'', '\c', '\0103', '\101');
	printf("%d\n", 'ab\"d');
	printf("[%s] [%s] [%s] [%s]\n", "a\?b", "\'", "\x414243", "\1010\61");
	exit(0);
}
