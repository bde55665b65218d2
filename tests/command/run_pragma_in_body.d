/* A control line inside a clause applies as at the top: quiet here, though the body has a "{" in
   a string and a comment before it. */
BEGIN
{
	trace("{");
  #pragma D option quiet
	printf("%d\n", 1); /* { */
	exit(0);
}
