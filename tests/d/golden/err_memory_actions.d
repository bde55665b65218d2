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
BEGIN { copyout(0, 20); }
BEGIN { copyout((void *)3, (uintptr_t)1000, (size_t)1000, "toomany"); }
BEGIN { copyout("not_void_*", "not_uintptr_t", "not_size_t"); }
BEGIN { copyoutstr("string", "not_uintptr_t"); }
BEGIN { copyoutstr(1, 2, 3); }
BEGIN { copyoutstr("s", 2, "three"); }
BEGIN { speculate(1); copyout("x", 0, 1); }
