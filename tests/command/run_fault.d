/* A division by zero at run time is reported, the faulting firing's data is dropped (as DTrace drops it), and the run goes on. */
#pragma D option quiet
BEGIN { x = 0; printf("before\n"); y = 1 / x; printf("not printed\n"); }
BEGIN { printf("next clause\n"); exit(0); }
