#pragma D option quiet
BEGIN { printf("%d %d %d %d\n", sizeof("hi"), sizeof(""), sizeof("a\tb"), sizeof(string)); exit(0); }
