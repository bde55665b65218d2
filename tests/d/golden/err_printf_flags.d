BEGIN { printf("%.*.*d", 1, 2, 3); }
BEGIN { printf("%**d", 1, 2, 3); }
BEGIN { printf("%.**d", 1, 2, 3); }
BEGIN { printf("%-%"); }
BEGIN { printf("%s %.*d\n", "foo"); }
BEGIN { printf("%-8.*d\n", "foo", 1); }
BEGIN { printf("%*.*d\n", 1, "foo", 1); }
BEGIN { printf("%-8lld\n"); }
