/* Entry/return latency: the seeds' pattern. */
#pragma D option quiet
syscall::read:entry
/pid == $target/
{
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	@lat[probefunc] = quantize(timestamp - self->ts);
	@n[execname, (int)arg0] = count();
	self->ts = 0;
}
