/* Struct variables hold their bytes: members at constant offsets, nested, read and written,
   kept from one clause to the next (global and self->); a member read at a computed index. */
#pragma D option quiet
struct inner { char c; long l; };
struct s { int i; struct inner in; short a[3]; } rec;
self struct s mine;

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

BEGIN
{
	exit(0);
}
