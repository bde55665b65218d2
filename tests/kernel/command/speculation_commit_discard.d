/* Speculations from a system call's probes: every other call's buffer is committed, the others
   discarded, so the even calls alone are printed. */
self int n;

syscall::getppid:entry
/pid == $target/
{
	self->s = speculation();
}

syscall::getppid:entry
/self->s/
{
	speculate(self->s);
	printf("call %d\n", self->n);
}

syscall::getppid:return
/self->s && self->n % 2 == 0/
{
	commit(self->s);
}

syscall::getppid:return
/self->s && self->n % 2 == 1/
{
	discard(self->s);
}

syscall::getppid:return
/self->s/
{
	self->s = 0;
	self->n++;
}
