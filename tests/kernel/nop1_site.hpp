// nop1_site(): a DTPP_PROBE site built with DTPP_PROBE_NOP1 (nop1_site.cpp, that file only), for
// the kernel tests and kernel_bench.
#pragma once

#include <cstdint>

/// Fires nopone:::tick once with arg0 = i; its site is <sys/sdt.h>'s one-byte `nop`.
void nop1_site(std::int64_t i);
