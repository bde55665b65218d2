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

}  // namespace dtpp::testing
