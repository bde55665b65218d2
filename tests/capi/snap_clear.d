/*
 * Seed 000's periodic processing: system call counts made once in BEGIN, so that the first
 * print shows them and every print after dtrace_aggregate_clear() shows them zeroed. The
 * status rate paces the consumer's loop (10 prints in 100 ms, not 10 s).
 */
#pragma D option statusrate=10ms

BEGIN
{
	@c["write"] = count();
	@c["write"] = count();
	@c["write"] = count();
	@c["read"] = count();
	@c["read"] = count();
	@c["ioctl"] = count();
}
