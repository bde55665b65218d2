/* The -n program before this script made @a and @b; this one uses them. Clauses of all the
   programs run in command-line order, so exit() here skips the -n program's BEGIN after it. */
BEGIN { @a = count(); printf("script: @a updated twice\n"); exit(3); }
END { printa("@a %@d\n", @a); }
