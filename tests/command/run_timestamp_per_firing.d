/* timestamp is read once per firing: every use, in every clause of the firing, sees one value
   (as dtrace-utils caches it); the next firing reads the clock again. */
#pragma D option quiet

BEGIN { t = timestamp; printf("%d\n", timestamp - t); }
BEGIN { printf("%d %d\n", timestamp - t, t > 0); exit(0); }
END { printf("%d\n", timestamp > t); }
