/* copyout() and copyoutstr() in-process: D memory written into the process's own (here what
   alloca() took, read back with tracemem()); copyoutstr() stops after the NUL or at its most; an
   address that is not writable is a fault; a size over scratchsize an invalid size. */
#pragma D option quiet
#pragma D option destructive
BEGIN
{
	p = (char *)alloca(24);
	copyout("HELLO", (uintptr_t)p, 5);
	copyoutstr("hi there", (uintptr_t)p + 5, 3);
	copyoutstr("ok", (uintptr_t)p + 8, 99);
	q = (char *)alloca(4);
	q[0] = 'A'; q[1] = 'B'; q[2] = 'C'; q[3] = 'D';
	copyout(q, (uintptr_t)p + 12, 4);
	copyout(q, (uintptr_t)p + 16, 0);
	tracemem(p, 24);
}
BEGIN
{
	copyout("x", 0, 1);
}
BEGIN
{
	p = (char *)alloca(8);
	copyout("x", (uintptr_t)p, 257);
}
BEGIN
{
	exit(0);
}
