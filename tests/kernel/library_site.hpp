// library_site(): a DTPP_PROBE site in a shared library (library_site.cpp), for the kernel tests.
#pragma once

#include <cstdint>

/// Fires libsite:::tick once with arg0 = i, at the 5-byte nop of a site in a shared library.
void library_site(std::int64_t i);
