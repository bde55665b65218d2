/* Output is bytes: %c of 0 prints a NUL byte, as dtrace(1) does, and what follows it is kept. */
#pragma D option quiet
BEGIN { printf("[%c]", 0); printf("after\n"); }
BEGIN { @[0] = count(); printa("[%c] %@d\n", @); exit(0); }
