/* An empty character constant stops the program where DTrace's lexer stops. */
BEGIN
{
	a = '';
	b = nosuch;
}
