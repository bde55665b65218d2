// The one DTPP_PROBE site of the tests and benchmarks built with DTPP_PROBE_NOP5 (set on this file
// alone in CMake), so that the same binaries hold both kinds of site.
#include "nop5_site.hpp"

#include "dtpp/inproc/probe.hpp"

#ifndef DTPP_PROBE_NOP5
#error "nop5_site.cpp is built with DTPP_PROBE_NOP5"
#endif

// Not inlined: one site, wherever it is called from.
[[gnu::noinline]] void nop5_site(std::int64_t i) { DTPP_PROBE(nopfive, tick, i); }
