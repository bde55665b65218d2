// 128-bit unsigned arithmetic for stddev's sum of squares.
#pragma once

#include <cstdint>

namespace dtpp::agg {

__extension__ typedef unsigned __int128 uint128;

constexpr uint128 make_uint128(std::uint64_t high, std::uint64_t low) {
  return (static_cast<uint128>(high) << 64) | low;
}

/// The exact floor of the square root of a 128-bit value.
constexpr std::uint64_t isqrt(uint128 n) {
  // Bit-by-bit method: exact for every input, no floating point involved.
  uint128 root = 0;
  uint128 bit = static_cast<uint128>(1) << 126;
  while (bit > n) bit >>= 2;
  while (bit != 0) {
    if (n >= root + bit) {
      n -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return static_cast<std::uint64_t>(root);
}

}  // namespace dtpp::agg
