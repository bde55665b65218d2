/* basename() and dirname() of every kind of path, as DTrace (and POSIX) name them. */
#pragma D option quiet

BEGIN
{
	p[i++] = "/foo/bar/baz";
	p[i++] = "/foo/bar///baz/";
	p[i++] = "/foo/bar/baz/.//";
	p[i++] = "foo/bar/baz/";
	p[i++] = "/";
	p[i++] = "./";
	p[i++] = "//";
	p[i++] = "/.";
	p[i++] = "/./.";
	p[i++] = ".";
	p[i++] = "f";
	p[i++] = "f/";
	p[i++] = "///";
	p[i++] = "///a//";
	p[i++] = "";
	j = 0;
}

tick-1ms
/j < i/
{
	printf("[%s] [%s] [%s]\n", p[j], basename(p[j]), dirname(p[j]));
	j++;
}

tick-1ms
/j == i/
{
	exit(0);
}
