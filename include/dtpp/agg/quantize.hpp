// quantize()'s 127 power-of-two buckets: placement and labels.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace dtpp::agg::quantize {

inline constexpr std::size_t buckets = 127;
inline constexpr std::size_t zero_bucket = 63;

/// The bucket of x: labels are -2^62 ... -1, 0, 1 ... 2^62; a value lands in the bucket of the
/// largest label not above it (for negatives: the smallest label not below it).
constexpr std::size_t bucket(std::int64_t x) {
  if (x == 0) return zero_bucket;
  if (x > 0) {
    const auto width = std::bit_width(static_cast<std::uint64_t>(x));  // 1 .. 63
    return zero_bucket + static_cast<std::size_t>(width);
  }
  // |x| as unsigned, so INT64_MIN does not overflow; everything <= -2^62 shares bucket 0.
  const auto magnitude = 0 - static_cast<std::uint64_t>(x);
  const auto width = std::bit_width(magnitude);  // 1 .. 64
  return width >= 63 ? 0 : zero_bucket - static_cast<std::size_t>(width);
}

/// The label (lower bound for positives, upper bound for negatives) of bucket i.
constexpr std::int64_t label(std::size_t i) {
  if (i == zero_bucket) return 0;
  if (i > zero_bucket) return std::int64_t{1} << (i - zero_bucket - 1);
  return -(std::int64_t{1} << (zero_bucket - 1 - i));
}

}  // namespace dtpp::agg::quantize
