/* trace() of a struct, a union or an array (a char array too) records the object's bytes and
   prints them as dtrace-utils does, as tracemem() would. */
struct s {
	int	a;
	char	b;
	int	c;
} st;

union {
	int	i;
	char	b[3];
} u;

int a[3];
self char name[8];

BEGIN
{
	st.a = 0x1234; st.b = 0; st.c = 0x9876;
	trace(st);
	u.i = 0x12345678;
	trace(u);
	a[0] = -1; a[2] = 7;
	trace(a);
	self->name[0] = 'd'; self->name[1] = 't';
	trace(self->name);
	trace(stringof(self->name));
	exit(0);
}
