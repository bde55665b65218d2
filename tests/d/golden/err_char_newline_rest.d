BEGIN
{
	h = '
		';
	exit(0);
}
