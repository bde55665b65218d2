// One program of BEGIN clauses on scratch memory (alloca(), stores through pointers, bcopy() and
// their faults) that both engines' tests run, with an ERROR clause of their own after it.
#pragma once

namespace dtpp::testing {

// Each BEGIN clause starts with empty scratch; a fault ends its clause (its data dropped): 1
// invalid address, 5 out of scratch, 10 invalid size.
inline constexpr const char* scratch_clauses =
    "#pragma D option scratchsize=24\n"
    "BEGIN { p = (long *)alloca(16); p[0] = -9223372036854775807 - 1; p[1] = 5; *(p + 1) += 2; p[1]++;"
    "  c = (char *)alloca(3); c[0] = 'a'; c[1] = c[0] + 1; c[7] = 'z';"
    "  printf(\"%d %d %s %c\\n\", p[0], p[1], stringof(c), c[7]); }\n"
    "BEGIN { printf(\"A\\n\"); c = (char *)alloca(15); c[16] = 1; }\n"
    "BEGIN { printf(\"B\\n\"); c[0] = 1; }\n"
    "BEGIN { printf(\"C\\n\"); bcopy(\"abc\", alloca(0), 3); }\n"
    "BEGIN { printf(\"D\\n\"); bcopy(\"abc\", alloca(8), -1); }\n"
    "BEGIN { s = alloca(0); bcopy(probename, alloca(10), 6); printf(\"%s\\n\", (string)s); }\n"
    "BEGIN { n = 17; alloca(8); alloca(n); }\n"
    "BEGIN { d = alloca(16); s = alloca(8); bcopy(s, d, 16); }\n"
    "BEGIN { x = (int *)alloca(4); *(x - 1) = 1; }\n"
    "BEGIN { exit(0); }\n";

// Loads through pointers into scratch: the first and last bytes taken, a word ending at the top;
// before the bottom, at the top, across it, at INT64 limits far off, in a later clause and
// after alloca(0); a store and a bcopy() across the top. The ERROR clause prints the fault's code and, for an invalid address, its
// offset from p (an invalid size's value is the load's size).
inline constexpr const char* scratch_bounds =
    "#pragma D option quiet\n"
    "#pragma D option scratchsize=24\n"
    "BEGIN { p = (char *)alloca(15); p[0] = 1; p[15] = 2; printf(\"in %d %d %d\\n\", p[0], p[15], *(long *)(p + 8)); }\n"
    "BEGIN { p = (char *)alloca(15); trace(p[-1]); }\n"
    "BEGIN { p = (char *)alloca(15); trace(p[16]); }\n"
    "BEGIN { p = (char *)alloca(15); trace(*(long *)(p + 12)); }\n"
    "BEGIN { p = (char *)alloca(15); trace(((int *)p)[-1]); }\n"
    "BEGIN { p = (char *)alloca(8); i = 0x7fffffffffffffff; trace(p[i]); }\n"
    "BEGIN { p = (char *)alloca(8); i = -0x7fffffffffffffff - 1; trace(p[i]); }\n"
    "BEGIN { p = (char *)alloca(1); *p = 'a'; }\n"
    "BEGIN { trace(*p); }\n"
    "BEGIN { p = (char *)alloca(0); trace(*p); }\n"
    "BEGIN { p = (char *)alloca(15); *(long *)(p + 12) = 1; }\n"
    "BEGIN { p = (char *)alloca(16); bcopy(\"01\", &p[15], 2); }\n"
    "BEGIN { exit(0); }\n"
    "ERROR { printf(\"fault %d %d\\n\", arg4, arg4 == 1 ? (long)(arg5 - (uintptr_t)p) : arg5); }\n";
inline constexpr const char* scratch_bounds_output =
    "in 1 2 144115188075855872\nfault 1 -1\nfault 1 16\nfault 10 8\nfault 1 -4\nfault 1 9223372036854775807\n"
    "fault 1 -9223372036854775808\nfault 1 0\nfault 1 0\nfault 10 8\nfault 10 2\n";

}  // namespace dtpp::testing
