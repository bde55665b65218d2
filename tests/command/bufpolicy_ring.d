/* bufpolicy=ring keeps the newest firings that fit in bufsize bytes and prints them when tracing
   stops. Each firing here takes 8 bytes (a 4-byte enabled probe id and an int), so 50 bytes keep
   the last five values and exit()'s firing. */
#pragma D option bufpolicy=ring
#pragma D option bufsize=50

int i;

tick-1ms
/i < 30/
{
	trace(i);
	i++;
}

tick-1ms
/i == 30/
{
	exit(0);
}
