// A DTPP_PROBE site in a shared library (libdtpp_library_site.so, which the kernel tests link), so
// that the sites of every loaded object are tested, not the executable's only.
#include "library_site.hpp"

#include "dtpp/inproc/probe.hpp"

[[gnu::noinline]] void library_site(std::int64_t i) { DTPP_PROBE(libsite, tick, i); }
