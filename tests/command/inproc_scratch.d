/* Scratch memory and stores through pointers in the in-process engine: the kernel engine's
   results and fault messages (struct variables: run_struct_variables.d, in both engines). */
#pragma D option quiet
#pragma D option scratchsize=24

BEGIN
{
	p = (long *)alloca(16);
	p[0] = -9223372036854775807 - 1;
	p[1] = 5;
	*(p + 1) += 2;
	p[1]++;
	c = (char *)alloca(8);
	bcopy("abc", c, 3);
	c[1] = 'B';
	q = (char *)copyin((uintptr_t)c, 0);
	printf("%d %d %s %d\n", p[0], p[1], stringof(c), (uintptr_t)q - (uintptr_t)c);
}

BEGIN
{
	c = (char *)alloca(8);
	bcopy("xyz", c, 4);
	d = (char *)copyin((uintptr_t)c + 1, 5);
	copyinto((uintptr_t)c, 1, d + 2);
	printf("%s %s %d\n", stringof(c), stringof(d), *(long *)alloca(8));
}

BEGIN { printf("lost\n"); n = 25; alloca(n); }
BEGIN { printf("lost\n"); bcopy("abc", alloca(8), -1); }
BEGIN { printf("lost\n"); copyin(0, 4); }
BEGIN { printf("lost\n"); copyinto(8, 4, alloca(4)); }
BEGIN { exit(0); }
ERROR { printf("fault %d\n", arg4); }
