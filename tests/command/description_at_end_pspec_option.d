BEGIN { exit(0); }
int*x
