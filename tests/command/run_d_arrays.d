/* Arrays declared in D: global, self-> and this->, of integers, chars, structs and pointers, two
   dimensions; zero at start, elements at constant and computed indexes read and written, ++ and
   op=, sizeof, &a[i], a char array as its string; kept from one clause to the next (this->
   from one clause of a firing to the next). */
#pragma D option quiet
struct pair { int a; long b; };
int a[5];
long big[3];
char name[8];
struct pair pairs[2];
int *ptrs[2];
short m[2][3];
self int t[4];
this char c[6];

BEGIN
{
	printf("zero %d %d %d %d [%s]\n", a[0], a[4], big[2], m[1][2], name);
	a[0] = 1;
	a[4] = -2;
	i = 3;
	a[i] = 30;
	a[i]++;
	++a[i];
	a[i] += 10;
	a[1] = a[i] * 2;
	big[0] = 9223372036854775807;
	big[2] = -9223372036854775807 - 1;
	j = 1;
	big[j] = big[0] + big[2];
	name[0] = 'd';
	name[1] = 't';
	name[j + 1] = 'p';
	name[3] = 'p';
	pairs[1].a = 7;
	pairs[j].b = -7;
	ptrs[1] = &a[4];
	m[1][2] = 12;
	m[j][j] = 11;
	m[0][i - 1] = 2;
	self->t[3] = 4;
	self->t[i - 2] = 6;
	this->c[0] = 'x';
	this->c[j] = 'y';
	printf("a %d %d %d %d %d\n", a[0], a[1], a[2], a[i], a[4]);
	printf("big %d %d %d\n", big[0], big[1], big[2]);
	printf("name [%s] %c\n", name, name[j]);
	printf("pairs %d %d %d %d\n", pairs[1].a, pairs[j].b, pairs[0].a, *ptrs[1]);
	printf("m %d %d %d %d\n", m[1][2], m[1][1], m[0][2], m[j][2]);
	printf("self %d %d this [%s]\n", self->t[3], self->t[1], this->c);
	printf("sizeof %d %d %d %d %d %d %d\n", sizeof(a), sizeof(a[0]), sizeof(name), sizeof(pairs), sizeof(m),
	    sizeof(m[1]), sizeof(self->t));
	printf("address %d %d %d\n", (int)(&a[4] - &a[0]), (uintptr_t)&a[3] - (uintptr_t)&a[1],
	    (uintptr_t)&m[1][0] - (uintptr_t)&m[0][0]);
}

BEGIN
{
	printf("later %d %d [%s] %d %d [%s]\n", a[3], m[1][2], name, self->t[1], this->c[0], this->c);
	exit(0);
}
