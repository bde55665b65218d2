void func(int, int);
#pragma D attributes Stable/Stable/Common later
#pragma D attributes Stable/Stable/Common pid
#pragma D attributes Stable/Stable/Common EIO
#pragma D attributes Evolving/Evolving/Common provider syscall provider
#pragma D attributes Stable/Stable/Common func
int later;
BEGIN { exit(0); }
