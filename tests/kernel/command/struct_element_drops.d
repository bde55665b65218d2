/* A struct element the map has no room for is a dynamic variable drop: its store, its ++ (whose
   value is then 0) and a whole-struct copy into it are lost, and it still reads as zeros. */
struct s { int a; long b; };
struct s a[int];

BEGIN
{
	a[1].a = 5;
	a[2].a = 7;
	x = a[2].b++;
	a[3] = a[1];
	printf("%d %d %d %d %d\n", a[1].a, a[2].a, a[2].b, x, a[3].a);
	exit(0);
}
