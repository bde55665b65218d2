BEGIN
{
	trace(args[0]]);
}
