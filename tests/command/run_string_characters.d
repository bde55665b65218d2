/* A string indexed is an array of char: its characters, then 0 from its NUL to its last byte
   (strsize); an index before or past those faults, with the index. Any string: a variable of
   each kind, an associative array's element, a subroutine's result, a literal, a built-in. */
#pragma D option quiet
#pragma D option strsize=8
BEGIN
{
	s = "ABCDEFG";
	self->t = "xyz";
	this->l = "hij";
	a[1] = "klm";
	printf("%d %d %d %d %d %d %c\n", s[1], s[6], s[7], s[8], self->t[0], this->l[2], a[1][1]);
	printf("%d %d\n", strjoin("ab", "cd")[3], "lit"[0]);
	printf("%c%c %d %c\n", execname[0], execname[1], probename[5], probeprov[1]);
	i = 9;
}
BEGIN { trace(s[i]); }
BEGIN { trace(s[-1]); }
BEGIN { exit(0); }
ERROR { printf("fault %d at %d\n", arg4, arg5); }
