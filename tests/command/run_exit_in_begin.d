/* exit() in BEGIN skips the later BEGIN clauses but finishes its own; END still runs. */
#pragma D option quiet
BEGIN { printf("first\n"); exit(7); printf("rest of the clause\n"); }
BEGIN { printf("never\n"); }
END { printf("end\n"); }
