/*
 * A string in memory, through a string pointer into alloca()'d bytes: stored, its bytes and the
 * zeros after them are copied there (into scratch memory only, as bcopy() copies); read, it is
 * the string there.
 */
#pragma D option quiet
#pragma D option scratchsize=512

BEGIN
{
	x = (string *)alloca(sizeof(string) + 1);
	*x = "abc";
	printf("[%s] %d\n", *x, strlen(*x));
	*x = "";
	printf("[%s]\n", *x);
	exit(0);
}
