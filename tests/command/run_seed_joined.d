/* Seed 000's syscall-latency-stats.d, fed with generated latencies instead of system calls. */
#pragma D option quiet
#pragma D option aggsortpos=2

BEGIN
{
	i = 0;
}

tick-1ms
/i < 40/
{
	this->call = i % 4 == 0 ? "read" : i % 4 == 1 ? "write" : i % 4 == 2 ? "close" : "pollsys";
	this->lat = (i % 4 + 1) * 1000 + i * 7;
	@m[this->call] = min(this->lat);
	@M[this->call] = max(this->lat);
	@a[this->call] = avg(this->lat);
	i++;
}

tick-1ms
/i >= 40/
{
	exit(0);
}

END
{
	printa("%-20s min: %12@d max:%12@d avg:%12@d\n", @m, @M, @a);
}
