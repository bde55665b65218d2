// The one DTPP_PROBE site of the tests and benchmarks built with DTPP_PROBE_NOP1 (set on this file
// alone in CMake), so that the same binaries hold both kinds of site.
#include "nop1_site.hpp"

#include "dtpp/inproc/probe.hpp"

#ifndef DTPP_PROBE_NOP1
#error "nop1_site.cpp is built with DTPP_PROBE_NOP1"
#endif

// Not inlined: one site, wherever it is called from.
[[gnu::noinline]] void nop1_site(std::int64_t i) { DTPP_PROBE(nopone, tick, i); }
