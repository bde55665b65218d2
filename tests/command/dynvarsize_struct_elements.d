/* Each element of an associative array costs what dtrace-utils' does: its key tuple (4-byte id,
   the int key, 8-byte thread key: 16) and the largest value, a 24-byte struct: 40 bytes, so that
   115 bytes hold two. A member written at a new key makes an element, and is a drop when there is
   no room; reading a missing key makes none; storing 0 deletes one and makes room. */
#pragma D option quiet
#pragma D option dynvarsize=115
struct s { long a; long b; long c; } rec;

BEGIN
{
	rec.a = 1;
	a[1] = rec;
	a[2] = rec;
	a[3] = rec;
	a[4].b = 2;
	printf("%d %d %d\n", a[3].a, a[4].b, a[9].c);
	a[1] = 0;
	a[5].c = -9223372036854775807 - 1;
	a[6] = rec;
	printf("%d %d %d\n", a[1].a, a[2].a, a[5].c);
	exit(0);
}
