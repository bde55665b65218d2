/* A key with side effects is evaluated once in a compound assignment or ++/-- of an associative
   array's element (integer or struct member, in place or new), of a thread's array and of a
   struct element's array member, and in a store, a whole struct's store and a delete (issue #13). */
#pragma D option quiet
struct s { int m; long n; long r[3]; };
struct s a[int];
struct s rec;

BEGIN
{
	a[i++].m += 1;
	a[i++].m++;
	++a[i++].n;
	a[0].m -= 3;
	a[i - 1].n--;
	a[i++].r[j++] += 9223372036854775807;
	a[i - 1].r[j++]--;
	b[k++] += 1;
	b[k++]++;
	--b[k++];
	b[0] *= -2147483647 - 1;
	c[k++, "x", l++] |= 6;
	c[2, "x", 1] <<= 1;
	d[k++] = -5;
	self->x[m++]++;
	self->x[m++] += 5;
	rec.n = -7;
	a[i++] = rec;
	a[i++].m = 4;
	a[--i] = 0;
	printf("i=%d j=%d k=%d l=%d m=%d\n", i, j, k, l, m);
	printf("%d %d %d %d %d %d\n", a[0].m, a[1].m, a[2].n, a[3].r[0], a[3].r[1], a[4].n);
	printf("%d %d %d %d %d\n", a[5].m, b[0], b[1], b[2], b[3]);
	printf("%d %d %d %d %d\n", c[3, "x", 0], c[2, "x", 1], self->x[0], self->x[1], d[4]);
	exit(0);
}
