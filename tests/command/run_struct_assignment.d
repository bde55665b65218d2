/* A whole struct or union is assigned to a variable of its type (global, self->, this->, one made
   by the assignment), its bytes copied: later stores to either leave the other as it was. */
#pragma D option quiet
struct s { int i; char name[6]; long l; } rec;
struct s copy;
union u { int i; char c; } one;
union u two;
self struct s mine;

BEGIN
{
	rec.i = -1;
	rec.name[0] = 'o';
	rec.name[1] = 'k';
	rec.l = 9223372036854775807;
	copy = rec;
	rec.i = 2;
	self->mine = copy;
	this->local = self->mine;
	made = this->local;
	made.l = 0;
	one.i = 258;
	two = one;
	one.c = 0;
	printf("%d [%s] %d / %d %d\n", copy.i, copy.name, copy.l, rec.i, rec.l);
	printf("%d [%s] %d / %d %d / %d %d\n", self->mine.i, self->mine.name, this->local.l, made.i, made.l, two.i, one.i);
}

BEGIN
{
	copy = rec;
	printf("%d %d %d\n", copy.i, self->mine.i, made.i);
	exit(0);
}
