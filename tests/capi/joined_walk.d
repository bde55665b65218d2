/*
 * Seed 000's syscall-latency-stats.d with known latencies fed in BEGIN in place of system calls;
 * the consumer's chewrec() joins @m, @M and @a when it meets the printa() record.
 */
#pragma D option quiet
#pragma D option aggsortpos=2

BEGIN
{
	this->lat = 19559;
	@m["close"] = min(this->lat); @M["close"] = max(this->lat); @a["close"] = avg(this->lat);
	this->lat = 38758;
	@m["close"] = min(this->lat); @M["close"] = max(this->lat); @a["close"] = avg(this->lat);
	this->lat = 36407;
	@m["schedctl"] = min(this->lat); @M["schedctl"] = max(this->lat); @a["schedctl"] = avg(this->lat);
	this->lat = 5156;
	@m["write"] = min(this->lat); @M["write"] = max(this->lat); @a["write"] = avg(this->lat);
	this->lat = 170056;
	@m["write"] = min(this->lat); @M["write"] = max(this->lat); @a["write"] = avg(this->lat);
	this->lat = 87936;
	@m["write"] = min(this->lat); @M["write"] = max(this->lat); @a["write"] = avg(this->lat);
	exit(0);
}

END
{
	printa("%-20s min: %12@d max:%12@d avg:%12@d\n", @m, @M, @a);
}
