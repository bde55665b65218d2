/* A predicate is an integer, a pointer or a string: an array of ints or a struct is none, even
   where dtpp could take its value (D_PRED_SCALAR); tracemem() takes an address, not a struct
   (D_TRACEMEM_ADDR). The predicate's error names the clause's last line, as DTrace's does. */
int a[4];
struct point { int x, y; } p;

BEGIN
/a/
{
}

BEGIN
/p/
{
}

BEGIN
{
	tracemem(p, 8);
}
