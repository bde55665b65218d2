int *p;
int x;
BEGIN { p = 0; p = (int *)16; x = (int)p; }
BEGIN { p = 16; }
BEGIN { x = p; }
BEGIN { a[1] = p; a[2] = x; }
