/* Members of an associative array's struct element at computed indexes (made zeroed first when
   missing, past the member's end the index fault), and whole structs stored at computed indexes
   of struct arrays in a global, a clause-local and a thread's element. */
#pragma D option quiet
struct in { short s; char c; };
struct s { int arr[3]; struct in in; long l; } rec, r[3];
this struct s tr[2];
struct s a[string];
BEGIN
{
	i = 2;
	a["x"].arr[i] = 7;
	a["x"].arr[0]++;
	a["x"].arr[0] += 9;
	rec.in.s = -32768; rec.in.c = 'z'; rec.l = -1;
	a["y"].in = rec.in;
	r[i] = rec;
	r[i - 2].in = rec.in;
	this->tr[i - 1] = rec;
	self->t[0] = r[2];
	self->t[0].arr[1] = -5;
	printf("%d %d %d / %d %c %d / %d %d %d / %d %c / %d %d\n", a["x"].arr[0], a["x"].arr[1], a["x"].arr[2],
	    a["y"].in.s, a["y"].in.c, a["y"].l, r[2].in.s, r[2].l, r[1].l, r[0].in.s, r[0].in.c, this->tr[1].l, self->t[0].arr[1]);
}
BEGIN
{
	j = 3;
	a["z"].arr[j] = 1;
}
ERROR { printf("fault\n"); exit(1); }
