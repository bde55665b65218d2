BEGIN { @a = count(); trace(@a); }
BEGIN { trace(trace(1)); }
BEGIN { trace((void)1); }
BEGIN { printf(probename); }
BEGIN { @b[1]; }
BEGIN { @ = tick-1(); }
BEGIN { @undefined; }
BEGIN { printf(123); }
