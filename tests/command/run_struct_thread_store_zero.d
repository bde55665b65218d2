/* A thread's struct assigned 0 is deleted, as DTrace deletes a dynamic variable stored zero: it
   reads as zeros after, and is made again by a store. */
#pragma D option quiet
self struct { int a; long l; } r;

BEGIN
{
	self->r.a = 5;
	self->r.l = -9223372036854775807 - 1;
	self->r = 0;
	printf("%d %d\n", self->r.a, self->r.l);
	self->r.l = 9223372036854775807;
	printf("%d %d\n", self->r.a, self->r.l);
	exit(0);
}
