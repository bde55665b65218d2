/* -x cpppath=/bin/cat: cat rejects cpp's options, and names itself "cat", as dtrace-utils runs it. */
BEGIN { exit(0); }
