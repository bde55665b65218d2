BEGIN
{
	s = speculation();
}
END
{
	speculate(1);
}
