// llquantize()'s parameters (illumos's encoded word), checks, log-linear buckets and labels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dtpp/agg/param_error.hpp"

namespace dtpp::agg {

/// llquantize(x, factor, low, high, nsteps): one bucket below factor^low, then for each order of
/// magnitude m in [low, high] the range [factor^m, factor^(m+1)) cut into equal buckets, then one
/// bucket at or above factor^(high+1). The layout is illumos's (docs/design.md, decision 9).
struct llquantize_params {
  std::uint16_t factor = 10;
  std::uint16_t low = 0;
  std::uint16_t high = 1;
  std::uint16_t nsteps = 10;

  /// DTrace's word: factor in bits 48-63, low in 32-47, high in 16-31, nsteps in 0-15.
  constexpr std::uint64_t encode() const {
    return std::uint64_t{factor} << 48 | std::uint64_t{low} << 32 | std::uint64_t{high} << 16 |
           nsteps;
  }
  static constexpr llquantize_params decode(std::uint64_t word) {
    return {static_cast<std::uint16_t>(word >> 48), static_cast<std::uint16_t>(word >> 32),
            static_cast<std::uint16_t>(word >> 16), static_cast<std::uint16_t>(word)};
  }

  /// Checks the arguments as the D compiler does and throws param_error with its tag.
  static llquantize_params make(std::int64_t factor, std::int64_t low, std::int64_t high,
                                std::int64_t nsteps) {
    struct arg { std::int64_t value; const char* name; const char* tag; };
    const arg args[] = {{factor, "factor", "D_LLQUANT_FACTORVAL"},
                        {low, "low magnitude", "D_LLQUANT_LMAGVAL"},
                        {high, "high magnitude", "D_LLQUANT_HMAGVAL"},
                        {nsteps, "linear steps per magnitude", "D_LLQUANT_STEPVAL"}};
    if (nsteps <= 0)
      throw param_error("D_LLQUANT_STEPTYPE",
                        "llquantize( ) argument #4 must be a non-zero positive integer constant");
    for (int i = 0; i < 4; ++i)
      if (args[i].value < 0 || args[i].value > std::numeric_limits<std::uint16_t>::max())
        throw param_error(args[i].tag, "llquantize( ) argument #" + std::to_string(i + 1) + " (" +
                                           args[i].name +
                                           ") must be an unsigned 16-bit quantity");
    if (factor < 2)
      throw param_error("D_LLQUANT_FACTORVAL",
                        "llquantize( ) factor (argument #1) must be two or more");
    if (low >= high)
      throw param_error("D_LLQUANT_HMAGVAL",
                        "llquantize( ) high magnitude (argument #3) must be greater than low "
                        "magnitude (argument #2)");
    if (nsteps < factor)
      throw param_error("D_LLQUANT_STEPVAL",
                        "llquantize( ) factor (argument #1) must be less than or equal to the "
                        "number of linear steps per magnitude (argument #4)");
    std::int64_t power = factor;
    while (power < nsteps) power *= factor;
    if (nsteps % factor != 0 || power % nsteps != 0)
      throw param_error("D_LLQUANT_STEPVAL",
                        "llquantize( ) factor (argument #1) must evenly divide the number of "
                        "steps per magnitude (argument #4), and the number of steps per magnitude "
                        "must evenly divide a power of the factor");
    std::uint64_t order = 1;
    for (std::int64_t i = 0; i <= high; ++i) {
      if (order > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(factor))
        throw param_error("D_LLQUANT_HMAGVAL",
                          "llquantize( ) factor (" + std::to_string(factor) +
                              ") raised to power of high magnitude (" + std::to_string(high) +
                              ") plus 1 overflows 64-bits");
      order *= static_cast<std::uint64_t>(factor);
    }
    return {static_cast<std::uint16_t>(factor), static_cast<std::uint16_t>(low),
            static_cast<std::uint16_t>(high), static_cast<std::uint16_t>(nsteps)};
  }

  /// factor^m; the checks guarantee factor^(high+1) fits.
  constexpr std::uint64_t power(unsigned m) const {
    std::uint64_t p = 1;
    for (unsigned i = 0; i < m; ++i) p *= factor;
    return p;
  }

  /// How many buckets the order of magnitude m (low .. high) contributes, and their width.
  constexpr std::uint64_t order_buckets(unsigned m) const {
    const auto drawn = order_drawn(m);
    return drawn - drawn / factor;
  }
  constexpr std::uint64_t order_width(unsigned m) const { return power(m + 1) / order_drawn(m); }

  /// Underflow + every order's buckets + overflow.
  constexpr std::size_t buckets() const {
    std::size_t n = 2;
    for (unsigned m = low; m <= high; ++m) n += order_buckets(m);
    return n;
  }

  constexpr std::size_t bucket(std::int64_t x) const {
    if (x < 0) return 0;
    const auto v = static_cast<std::uint64_t>(x);
    if (v < power(low)) return 0;
    std::size_t first = 1;  // index of the first bucket of order m
    for (unsigned m = low; m <= high; ++m) {
      const auto drawn = order_drawn(m);
      if (v < power(m + 1))
        return first + static_cast<std::size_t>(v / order_width(m) - drawn / factor);
      first += static_cast<std::size_t>(drawn - drawn / factor);
    }
    return first;  // the overflow bucket
  }

  /// The lower bound of every bucket; entry 0 is factor^low (the "< N" label) and the last entry is
  /// factor^(high+1) (the ">= N" label).
  std::vector<std::uint64_t> labels() const {
    std::vector<std::uint64_t> out;
    out.reserve(buckets());
    out.push_back(power(low));
    for (unsigned m = low; m <= high; ++m) {
      const auto width = order_width(m);
      for (auto v = power(m); v < power(m + 1); v += width) out.push_back(v);
    }
    out.push_back(power(high + 1u));
    return out;
  }

  void expect_same(const llquantize_params& other) const {
    auto check = [](unsigned mine, unsigned theirs, const char* tag, const char* what) {
      if (mine != theirs)
        throw param_error(tag, std::string("llquantize() ") + what +
                                   " doesn't match previous declaration: expected " +
                                   std::to_string(mine) + ", found " + std::to_string(theirs));
    };
    check(factor, other.factor, "D_LLQUANT_MATCHFACTOR", "factor (argument #1)");
    check(low, other.low, "D_LLQUANT_MATCHLMAG", "lmag (argument #2)");
    check(high, other.high, "D_LLQUANT_MATCHHMAG", "hmag (argument #3)");
    check(nsteps, other.nsteps, "D_LLQUANT_MATCHSTEPS", "steps (argument #4)");
  }

  friend constexpr bool operator==(const llquantize_params&, const llquantize_params&) = default;

 private:
  // Buckets the range [factor^m, factor^(m+1)) would have if it started at zero.
  constexpr std::uint64_t order_drawn(unsigned m) const {
    const auto top = power(m + 1);
    return top < nsteps ? top : nsteps;
  }
};

}  // namespace dtpp::agg
