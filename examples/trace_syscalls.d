/*
 * dtpp's main job: what the live system does for five seconds. Every system call is counted by
 * process and call, and read(2) is timed from entry to return.
 */
#pragma D option quiet

syscall:::entry
{
	@calls[execname, probefunc] = count();
}

syscall::read:entry
{
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	@latency["read(2), nanoseconds"] = quantize(timestamp - self->ts);
	self->ts = 0;
}

tick-5s
{
	printf("The 20 most frequent system calls of the last 5 seconds:\n");
	trunc(@calls, 20);
	printa("  %-16s %-20s %@8d\n", @calls);
	exit(0);
}
