#pragma D option ldpath=/nonexistent/directory
#pragma D option incdir=/tmp
BEGIN { exit(0); }
#pragma D option lockmem=1
#pragma D option procfspath=/proc
#pragma D option stdc=a
