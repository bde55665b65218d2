syscall::read:return
/self->ts/
{
	trace(self->ts);
}
