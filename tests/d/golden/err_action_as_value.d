/* An action used as a value: its arguments checked first, as DTrace cooks them, then the
   context that cannot take it. */
BEGIN { x = 1 ? printf("x") : trace(); }
BEGIN { x = 1 + printf(); }
BEGIN { x = 1 ? trace(1) : trace(2); }
