/* tick-N fire in time order: a 10 ms tick fires about ten times per 100 ms tick. */
#pragma D option quiet
tick-10ms { fast++; }
tick-100ms /slow++ == 2/ { printf("fast ticks in 300 ms: %s\n", fast >= 20 && fast <= 40 ? "20 to 40" : "wrong"); exit(0); }
