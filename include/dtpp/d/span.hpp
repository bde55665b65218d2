// A span of D source as byte offsets: what the syntax tree, the checked program and diagnostics
// point at, kept apart so that the checked program needs no syntax tree.
#pragma once

#include <cstdint>

namespace dtpp::d {

/// A span of the source, as byte offsets [begin, end).
struct span {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  friend bool operator==(const span&, const span&) = default;
};

/// No place in the source: errors about the command line, or about a program as a whole.
inline constexpr span nowhere{UINT32_MAX, UINT32_MAX};

}  // namespace dtpp::d
