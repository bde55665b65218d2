#pragma D option strsize=abc
#pragma D option bufsize=4q
#pragma D option verbose
BEGIN { exit(0); }
