/* lltostr() in every base both engines print alike: negative only in base 10, "0x" and "0"
   prefixes, the 64 bits of negative values in other bases, INT64_MIN; a base outside 2..36 is an
   illegal operation (DTRACEFLT_ILLOP, the base as its value). */
BEGIN { a = 0; b = -1; c = 255; d = -9223372036854775807 - 1; e = 9223372036854775807; f = 8; g = 7; h = 35; }
BEGIN { printf("%s %s %s %s %s\n", lltostr(a), lltostr(b), lltostr(c), lltostr(d), lltostr(e)); }
BEGIN { printf("%s %s %s %s %s\n", lltostr(a, 16), lltostr(b, 16), lltostr(c, 16), lltostr(d, 16), lltostr(e, 16)); }
BEGIN { printf("%s %s %s %s %s %s\n", lltostr(a, 8), lltostr(b, 8), lltostr(c, 8), lltostr(f, 8), lltostr(g, 8), lltostr(d, 8)); }
BEGIN { printf("%s %s %s %s\n", lltostr(a, 2), lltostr(b, 2), lltostr(c, 2), lltostr(h, 36)); }
BEGIN { printf("%s %s %s %s\n", lltostr(b, 36), lltostr(c, 3), lltostr(d, 10), stringof(b)); }
BEGIN { x = lltostr(c, 1); }
BEGIN { x = lltostr(c, 37); }
BEGIN { x = lltostr(c, b); }
ERROR { printf("fault %d value %d\n", arg4, arg5); }
BEGIN { exit(0); }
