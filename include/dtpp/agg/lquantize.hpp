// lquantize()'s parameters (DTrace's encoded word), their checks, bucket placement and labels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "dtpp/agg/param_error.hpp"

namespace dtpp::agg {

/// lquantize(x, base, limit, step): underflow, `levels` linear buckets of width `step`, overflow.
struct lquantize_params {
  std::int32_t base = 0;
  std::uint16_t levels = 1;
  std::uint16_t step = 1;

  /// DTrace's word: step in bits 48-63, levels in 32-47, base (two's complement) in 0-31.
  constexpr std::uint64_t encode() const {
    return std::uint64_t{step} << 48 | std::uint64_t{levels} << 32 |
           static_cast<std::uint32_t>(base);
  }
  static constexpr lquantize_params decode(std::uint64_t word) {
    return {static_cast<std::int32_t>(static_cast<std::uint32_t>(word)),
            static_cast<std::uint16_t>(word >> 32), static_cast<std::uint16_t>(word >> 48)};
  }

  /// Checks base, limit and step as the D compiler does and throws param_error with its tag.
  static lquantize_params make(std::int64_t base, std::int64_t limit, std::int64_t step = 1) {
    constexpr auto i32_min = std::numeric_limits<std::int32_t>::min();
    constexpr auto i32_max = std::numeric_limits<std::int32_t>::max();
    if (base < i32_min || base > i32_max)
      throw param_error("D_LQUANT_BASEVAL", "lquantize( ) argument #1 must be a 32-bit quantity");
    if (limit < i32_min || limit > i32_max)
      throw param_error("D_LQUANT_LIMVAL", "lquantize( ) argument #2 must be a 32-bit quantity");
    if (limit <= base)
      throw param_error("D_LQUANT_MISMATCH",
                        "lquantize( ) base (argument #1) must be less than limit (argument #2)");
    if (step <= 0)
      throw param_error("D_LQUANT_STEPTYPE",
                        "lquantize( ) argument #3 must be a non-zero positive integer constant");
    if (step > std::numeric_limits<std::uint16_t>::max())
      throw param_error("D_LQUANT_STEPVAL", "lquantize( ) argument #3 must be a 16-bit quantity");
    const std::int64_t levels = (limit - base) / step;
    if (levels == 0)
      throw param_error("D_LQUANT_STEPLARGE",
                        "lquantize( ) step (argument #3) too large: must have at least one "
                        "quantization level");
    if (levels > std::numeric_limits<std::uint16_t>::max())
      throw param_error("D_LQUANT_STEPSMALL",
                        "lquantize( ) step (argument #3) too small: number of quantization levels "
                        "must be a 16-bit quantity");
    return {static_cast<std::int32_t>(base), static_cast<std::uint16_t>(levels),
            static_cast<std::uint16_t>(step)};
  }

  /// Underflow + levels + overflow.
  constexpr std::size_t buckets() const { return std::size_t{levels} + 2; }

  /// The first value of the overflow bucket: base + levels * step (below limit when the range is
  /// not a multiple of step, as in DTrace).
  constexpr std::int64_t overflow_start() const {
    return std::int64_t{base} + std::int64_t{levels} * step;
  }

  /// The bucket of x, comparing the full 64-bit value (Linux DTrace's rule: docs/design.md,
  /// decision 10).
  constexpr std::size_t bucket(std::int64_t x) const {
    if (x < base) return 0;
    if (x >= overflow_start()) return std::size_t{levels} + 1;
    return static_cast<std::size_t>((x - base) / step) + 1;
  }

  /// Lower bound of a level bucket i (1 .. levels); also the value printed as its label.
  constexpr std::int64_t level_value(std::size_t i) const {
    return std::int64_t{base} + static_cast<std::int64_t>(i - 1) * step;
  }

  /// The check DTrace makes when two lquantize() calls name one aggregation.
  void expect_same(const lquantize_params& other) const {
    if (base != other.base)
      throw param_error("D_LQUANT_MATCHBASE",
                        "lquantize( ) base (argument #1) doesn't match previous declaration: "
                        "expected " + std::to_string(base) + ", found " +
                            std::to_string(other.base));
    if (overflow_start() != other.overflow_start())
      throw param_error("D_LQUANT_MATCHLIM",
                        "lquantize( ) limit (argument #2) doesn't match previous declaration: "
                        "expected " + std::to_string(overflow_start()) + ", found " +
                            std::to_string(other.overflow_start()));
    if (step != other.step)
      throw param_error("D_LQUANT_MATCHSTEP",
                        "lquantize( ) step (argument #3) doesn't match previous declaration: "
                        "expected " + std::to_string(step) + ", found " +
                            std::to_string(other.step));
  }

  friend constexpr bool operator==(const lquantize_params&, const lquantize_params&) = default;
};

}  // namespace dtpp::agg
