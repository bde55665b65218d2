/* A char pointer where a subroutine takes a string is the string it points to; a NULL (0)
   string is read at 0 and faults there, as in dtrace-utils. */
#pragma D option quiet

BEGIN
{
	x = (char *)alloca(8);
	x[0] = 'a';
	x[1] = '/';
	x[2] = 'b';
	x[3] = 0;
	printf("[%s] [%s] [%d] [%d]\n", basename(x), dirname(x), strlen(x), index(x, "/"));
}

BEGIN { trace(strlen(0)); }
BEGIN { trace(substr(0, 1)); }
BEGIN { trace(strjoin("a", NULL)); }

ERROR { printf("fault %d at %d\n", arg4, arg5); }

BEGIN { exit(0); }
