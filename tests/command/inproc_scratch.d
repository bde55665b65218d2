/* Scratch memory, stores through pointers and struct variables in the in-process engine: the
   kernel engine's results and fault messages (tests/kernel/command/struct_variables.d). */
#pragma D option quiet
#pragma D option scratchsize=24

struct inner { char c; long l; };
struct s { int i; struct inner in; short a[3]; } rec;
self struct s mine;

BEGIN
{
	p = (long *)alloca(16);
	p[0] = -9223372036854775807 - 1;
	p[1] = 5;
	*(p + 1) += 2;
	p[1]++;
	c = (char *)alloca(8);
	bcopy("abc", c, 3);
	c[1] = 'B';
	q = (char *)copyin((uintptr_t)c, 0);
	printf("%d %d %s %d\n", p[0], p[1], stringof(c), (uintptr_t)q - (uintptr_t)c);
}

BEGIN
{
	c = (char *)alloca(8);
	bcopy("xyz", c, 4);
	d = (char *)copyin((uintptr_t)c + 1, 5);
	copyinto((uintptr_t)c, 1, d + 2);
	printf("%s %s %d\n", stringof(c), stringof(d), *(long *)alloca(8));
}

BEGIN
{
	rec.i = 7;
	rec.i++;
	rec.in.l = -9223372036854775807 - 1;
	rec.in.c = 'x';
	rec.a[2] = -300;
	self->mine.i = 5;
	self->mine.i *= 3;
	printf("%d %d %c %d %d %d %d\n", rec.i, rec.in.l, rec.in.c, rec.a[2], rec.a[1], self->mine.i, sizeof(rec));
}

BEGIN
{
	i = 2;
	printf("%d %d %d\n", rec.i, self->mine.i, rec.a[i]);
}

BEGIN { printf("lost\n"); n = 25; alloca(n); }
BEGIN { printf("lost\n"); bcopy("abc", alloca(8), -1); }
BEGIN { printf("lost\n"); copyin(0, 4); }
BEGIN { printf("lost\n"); copyinto(8, 4, alloca(4)); }
BEGIN { exit(0); }
ERROR { printf("fault %d\n", arg4); }
