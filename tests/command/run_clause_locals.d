/*
 * Clause-locals belong to the probe firing: a value assigned in one clause is there in the next
 * clauses of the same firing, declared or not, and every firing starts from zero.
 */
#pragma D option quiet
this int declared;
tick-1ms { this->declared += 5; this->assigned = 7; }
tick-1ms { printf("%d %d\n", this->declared, this->assigned); this->assigned++; }
tick-1ms { printf("%d\n", this->assigned); }
tick-1ms /++n == 2/ { exit(0); }
