#!/usr/sbin/dtrace -qs

BEGIN { printf("not D: the #! line\n"); exit(0); }
