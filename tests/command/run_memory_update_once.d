/* A compound assignment or ++/-- through memory evaluates the target's address once: each i++ here runs once. */
#pragma D option quiet

struct s {
	int f[4];
};

int a[4];

BEGIN
{
	p = (int *)alloca(4 * sizeof(int));
	q = p;
	*q++ += 1;
	printf("*q++ += 1: q - p %d, p[0] %d\n", q - p, p[0]);
	i = 0;
	p[i++] += 2;
	printf("p[i++] += 2: i %d, p[0] %d\n", i, p[0]);
	x = (struct s *)alloca(sizeof(struct s));
	k = 1;
	x->f[k++] |= 5;
	printf("x->f[k++] |= 5: k %d, f[1] %d, f[2] %d\n", k, x->f[1], x->f[2]);
	j = 0;
	a[j++] -= 3;
	printf("a[j++] -= 3: j %d, a[0] %d, a[1] %d\n", j, a[0], a[1]);
	n = 0;
	m = p[n++]++;
	printf("p[n++]++: n %d, old %d, p[0] %d\n", n, m, p[0]);
	m = ++p[n++];
	printf("++p[n++]: n %d, new %d, p[1] %d\n", n, m, p[1]);
	m = --a[j++];
	printf("--a[j++]: j %d, new %d, a[1] %d\n", j, m, a[1]);
	m = x->f[k++]--;
	printf("x->f[k++]--: k %d, old %d, f[2] %d\n", k, m, x->f[2]);
	c = (char *)alloca(2);
	c[0] = 127;
	m = ++c[0];
	printf("++c[0] of a char 127: %d %d\n", m, c[0]);
	exit(0);
}
