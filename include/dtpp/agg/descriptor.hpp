// What an aggregation is: its variable id, name, function and key types.
#pragma once

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

}  // namespace dtpp::agg
