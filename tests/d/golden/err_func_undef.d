BEGIN
{
	x = nosuchfunc(1);
}
