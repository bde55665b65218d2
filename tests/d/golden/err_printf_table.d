BEGIN { printf("[%I] [%P] [%d]\n", 6, 7, 8); }
BEGIN { printf("%% %hhd\n", 1); }
BEGIN { printf("%c\n", 1L); }
BEGIN { printf("%ls\n", "wide"); }
BEGIN { printf("%Y\n", 1); }
BEGIN { printf("%d %-", 1); }
