// The nine aggregating functions, numbered in DTrace's action-code order.
#pragma once

#include <cstdint>
#include <string_view>

namespace dtpp::agg {

/// DTrace compares values of different aggregations by this order first (count < min < ... ),
/// so the enumerators keep the order of DTRACEAGG_COUNT ... DTRACEAGG_LLQUANTIZE.
enum class kind : std::uint8_t { count, min, max, avg, sum, stddev, quantize, lquantize, llquantize };

/// The D name of an aggregating function: "count", "lquantize", ...
constexpr std::string_view name(kind k) {
  constexpr std::string_view names[] = {"count", "min",    "max",       "avg",       "sum",
                                        "stddev", "quantize", "lquantize", "llquantize"};
  return names[static_cast<int>(k)];
}

constexpr bool is_histogram(kind k) {
  return k == kind::quantize || k == kind::lquantize || k == kind::llquantize;
}

}  // namespace dtpp::agg
