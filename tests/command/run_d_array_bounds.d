/* A computed index out of an array's bounds is DTrace's "index out of bounds" fault, with the
   index (the byte offset over the element's size, unsigned: -1 of an int is 2^62 - 1), for reads
   and writes alike; the first and last elements are in, and arrays of one element unchecked.
   As in DTrace the offset wraps: INT64_MIN of an int is element 0. */
#pragma D option quiet
int a[5];
char c[3];
long one[1];
long i;

BEGIN { i = 0; a[i] = 1; i = 4; a[i] = 5; printf("in %d %d\n", a[0], a[i]); }
BEGIN { i = 5; a[i] = 1; printf("not reached\n"); }
BEGIN { i = -1; trace(a[i]); }
BEGIN { i = 9223372036854775807; trace(a[i]); }
BEGIN { i = -9223372036854775807 - 1; a[i]++; printf("wrapped %d\n", a[0]); }
BEGIN { i = 3; c[i] = 'x'; }
BEGIN { i = 2; c[i] = 'z'; i = 0; printf("one %d %c\n", one[i], c[2]); }
ERROR { printf("fault %d %d\n", arg4, arg5); }
BEGIN { exit(0); }
