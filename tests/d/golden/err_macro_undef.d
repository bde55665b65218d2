BEGIN
{
	trace($3);
}
