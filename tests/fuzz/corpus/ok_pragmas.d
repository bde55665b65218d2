#!/usr/sbin/dtrace -s
#pragma D option quiet
#pragma D option bufsize=8m
#pragma D option aggsortrev
#pragma ident "whatever"
BEGIN { exit(0); }
