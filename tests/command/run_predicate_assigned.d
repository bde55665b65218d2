/* A predicate may read a variable that only its clause's actions assign: DTrace checks the
   actions first. */
#pragma D option quiet
BEGIN /n == 0/ { n = 1; printf("first\n"); }
BEGIN /n == 1/ { printf("second\n"); exit(0); }
