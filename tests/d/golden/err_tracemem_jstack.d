BEGIN { tracemem(123); }
BEGIN { tracemem(1, 2, 3, 4); }
BEGIN { tracemem(123, "a string"); }
BEGIN { tracemem("a string", 8); }
BEGIN { tracemem(123, -456); }
BEGIN { tracemem(123, 0); }
BEGIN { n = 8; tracemem(123, n); }
BEGIN { tracemem(123, 8, "a string"); }
BEGIN { jstack(0); }
BEGIN { jstack(1, -1); }
BEGIN { jstack(1, 2, 3); }
