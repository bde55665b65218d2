BEGIN
{
	pid = 1;
	$pid++;
}
