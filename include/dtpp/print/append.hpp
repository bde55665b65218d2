// printf-style appending to a std::string, the one primitive every formatter here uses.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>

namespace dtpp::print::detail {

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline void append(std::string& out, const char* format, ...) {
  char small[256];
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(small, sizeof small, format, args);
  va_end(args);
  if (n < 0) {
    va_end(again);
    return;
  }
  if (static_cast<std::size_t>(n) < sizeof small) {
    out.append(small, static_cast<std::size_t>(n));
  } else {
    const auto start = out.size();
    out.resize(start + static_cast<std::size_t>(n) + 1);
    std::vsnprintf(out.data() + start, static_cast<std::size_t>(n) + 1, format, again);
    out.resize(start + static_cast<std::size_t>(n));
  }
  va_end(again);
}

}  // namespace dtpp::print::detail
