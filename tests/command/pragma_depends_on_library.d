#pragma D depends_on library net.d
BEGIN
{
	exit(0);
}
