/* A file of D's library with an error: dtrace(1) blames the program, at this file's line. */
BEGIN
{
	nonexistent_action();
}
