/* dtrace:::ERROR runs after each fault, with dtrace-utils' arguments (the probe, the statement
   id of dt_clause_N, the pc (non-zero, engine-dependent), the fault code, the value), and the run
   goes on with the clause after the one that faulted; a fault in an ERROR clause (its data
   dropped) does not fire ERROR again. */
#pragma D option quiet

int zero;
int errors;

BEGIN { printf("clause 0\n"); }
BEGIN { x = 1 / zero; printf("not printed\n"); }
BEGIN { printf("clause 2\n"); }
BEGIN { y = 7 % zero; }
BEGIN { commit(-1); }

ERROR
{
	errors++;
	printf("ERROR %d %d %d %d %d %d: %s %s %d\n", arg0, arg1, arg2, arg3 > 0, arg4, arg5, probeprov,
	    probename, arg4 == DTRACEFLT_DIVZERO);
}

ERROR
/errors == 3/
{
	printf("fault in ERROR\n");
	z = 1 / zero;
	printf("not printed either\n");
}

BEGIN { printf("after the faults: %d\n", errors); exit(0); }
