BEGIN
{
	exit("");
}
