BEGIN
{
	h = "hello

		there";
	exit(0);
}
