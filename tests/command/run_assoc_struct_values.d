/* A struct or union as an associative array's value: whole elements stored and read, members
   read and written in place, an element not made yet reads as zeros, and storing 0 deletes one. */
#pragma D option quiet
struct s { int i; long l; char name[4]; } rec;
union u { int i; char c; } one;
struct s declared[string, long];

BEGIN
{
	rec.i = -2147483648;
	rec.l = 9223372036854775807;
	rec.name[0] = 'o';
	rec.name[1] = 'k';
	a[1] = rec;
	a[-1] = rec;
	a[-1].l = -9223372036854775807 - 1;
	a[0].i = 0;
	copy = a[1];
	rec.i = 5;
	printf("%d %d %s / %d %d / %d %d\n", a[1].i, a[1].l, a[1].name, a[-1].i, a[-1].l, a[2].i, a[2].l);
	printf("%d %d %s\n", copy.i, copy.l, copy.name);
	declared["x", 9223372036854775807] = rec;
	declared["y", -9223372036854775807 - 1].i = 1;
	declared["y", 0].l++;
	declared["y", 0].l++;
	printf("%d %d %d %d\n", declared["x", 9223372036854775807].i, declared["y", -9223372036854775807 - 1].i,
	    declared["y", 0].l, declared["x", 0].i);
	a[1] = 0;
	printf("%d %d %d\n", a[1].i, a[1].l, a[-1].i);
	one.i = 0x141;
	self->us[1, "k"] = one;
	this->r = a[-1];
	printf("%d %c %d\n", self->us[1, "k"].i, self->us[1, "k"].c, this->r.l);
	exit(0);
}
