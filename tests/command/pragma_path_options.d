#pragma D option ldpath=/nonexistent/directory
#pragma D option incdir=/tmp
BEGIN { exit(0); }
