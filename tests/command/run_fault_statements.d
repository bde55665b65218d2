/* A fault names dtrace-utils' statement, dt_clause_N: each probe description of each clause is
   one, numbered from 0 in program order (BEGIN 0 and END 1 here, then END 2 and BEGIN 3 ...);
   the probe ID is the probe's, its kind's words carry the address where it has one, and ERROR's
   arg1 .. arg5 are the probe, the statement, the pc (non-zero), the kind and the value. */
#pragma D option quiet

int zero;

BEGIN, END { printf("%s\n", probename); }
END, BEGIN { x = 1 / zero; }
ERROR { printf("ERROR %d %d %d %d %d\n", arg1, arg2, arg3 > 0, arg4, arg5); }
BEGIN { trace(inet_ntoa(NULL)); }
BEGIN { exit(0); }
