/*
 * Structs and unions as associative arrays' keys, as DTrace keys them: by their bytes, so two
 * variables holding the same bytes are one key, and changing a member makes another.
 */
#pragma D option quiet

struct record {
	int position;
	char content;
};

struct wide {
	long a;
	int b;
	char c;
	struct record in;
};

union either {
	int i;
	char c[4];
};

struct record r1, r2;
struct wide w;
union either u;

BEGIN
{
	r1.position = 1;
	r1.content = 'a';
	r2.position = 1;
	r2.content = 'a';
	a[r1] = 1000;
	a[r2] = 2000;
	r2.content = 'b';
	a[r2] = 3000;
	printf("%d %d %d\n", a[r1], a[r2], a[w.in]);

	w.a = -1;
	w.b = 7;
	w.c = 'z';
	w.in = r1;
	b[w, 5] = 1;
	b[w, 6] = 2;
	w.in.content = 'b';
	b[w, 5] += 10;
	w.in = r1;
	printf("%d %d %d %d\n", b[w, 5], b[w, 6], sizeof(w), a[w.in]);

	u.i = 0x41424344;
	c[u] = "abcd";
	u.c[0] = 'x';
	c[u] = "xcba";
	u.i = 0x41424344;
	self->t[u, r1] = 9;
	printf("%s %d %d\n", c[u], self->t[u, r1], self->t[u, r2]);
	u.c[0] = 'x';
	printf("%s\n", c[u]);
	exit(0);
}
