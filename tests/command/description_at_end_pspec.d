#pragma D option pspec
int*x
