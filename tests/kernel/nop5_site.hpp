// nop5_site(): a DTPP_PROBE site built with DTPP_PROBE_NOP5 (nop5_site.cpp, that file only), for
// the kernel tests and kernel_bench.
#pragma once

#include <cstdint>

/// Fires nopfive:::tick once with arg0 = i; its site is the 5-byte nop `0f 1f 44 00 00`.
void nop5_site(std::int64_t i);
