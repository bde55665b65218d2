// What an aggregation is: its variable id, name, function and key types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dtpp/agg/functions.hpp"
#include "dtpp/agg/key.hpp"

namespace dtpp::agg {

/// The run-time description of an aggregation, as the D compiler produces it (the typed API
/// fills it from the C++ types). Variable ids follow first appearance in a D program.
struct descriptor {
  std::uint32_t varid = 0;
  std::string name;              ///< without the '@'; empty for the anonymous aggregation
  function fn;
  std::vector<key_type> keys;
  friend bool operator==(const descriptor&, const descriptor&) = default;
};

/// The bytes a row of the aggregation takes in aggsize: its keys and the function's words, with
/// one word more.
inline std::size_t row_bytes(const descriptor& d) {
  std::size_t row = 8 * (d.fn.words() + 1);
  for (const auto& k : d.keys) row += k.size;
  return row;
}

}  // namespace dtpp::agg
