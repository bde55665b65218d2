// The typed values aggregations yield: avg, stddev and histogram views over DTrace's words.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <span>

#include "dtpp/agg/int128.hpp"
#include "dtpp/agg/kind.hpp"
#include "dtpp/agg/llquantize.hpp"
#include "dtpp/agg/lquantize.hpp"
#include "dtpp/agg/quantize.hpp"

namespace dtpp {

/// avg(): the count and sum DTrace keeps.
struct avg {
  std::uint64_t count = 0;
  std::int64_t sum = 0;

  /// The exact mean (0 for no samples).
  double mean() const {
    return count == 0 ? 0.0
                      : static_cast<double>(static_cast<long double>(sum) /
                                            static_cast<long double>(count));
  }
  /// DTrace's printed integer: sum / count, signed, truncating toward zero.
  std::int64_t value() const {
    return count == 0 ? 0 : sum / static_cast<std::int64_t>(count);
  }
  friend bool operator==(const avg&, const avg&) = default;
};

/// stddev(): count, sum and the 128-bit sum of squares DTrace keeps.
struct stddev {
  std::uint64_t count = 0;
  std::int64_t sum = 0;
  agg::uint128 sum_of_squares = 0;

  double mean() const { return avg{count, sum}.mean(); }

  /// The population standard deviation, computed exactly in 128 bits while that is possible.
  double stddev_value() const {
    if (count == 0) return 0.0;
    const agg::uint128 n = count;
    const agg::uint128 abs_sum = sum < 0 ? 0 - static_cast<std::uint64_t>(sum)
                                         : static_cast<std::uint64_t>(sum);
    agg::uint128 scaled;  // count * sum_of_squares
    if (!__builtin_mul_overflow(n, sum_of_squares, &scaled)) {
      const agg::uint128 spread = scaled - abs_sum * abs_sum;  // count^2 * variance >= 0
      return static_cast<double>(std::sqrt(static_cast<long double>(spread)) /
                                 static_cast<long double>(count));
    }
    const long double m = static_cast<long double>(sum) / count;
    const long double v = static_cast<long double>(sum_of_squares) / count - m * m;
    return static_cast<double>(std::sqrt(v < 0 ? 0 : v));
  }
  /// DTrace's printed integer (normalization divisor 1).
  std::uint64_t value() const { return value(1); }

  /// DTrace's integer stddev with a normalization divisor: isqrt(sumsq / n^2 / count - mean^2).
  std::uint64_t value(std::uint64_t normal) const {
    if (count == 0) return 0;
    const auto n = static_cast<std::int64_t>(normal);
    std::int64_t mean = sum / n / static_cast<std::int64_t>(count);
    const agg::uint128 abs_mean = mean < 0 ? 0 - static_cast<std::uint64_t>(mean)
                                           : static_cast<std::uint64_t>(mean);
    const agg::uint128 squares = sum_of_squares / (agg::uint128{normal} * normal) / count;
    const agg::uint128 mean_squared = abs_mean * abs_mean;
    return squares < mean_squared ? 0 : agg::isqrt(squares - mean_squared);
  }
  friend bool operator==(const stddev&, const stddev&) = default;
};

/// One bucket of a histogram: every x with lower <= x <= upper was counted here.
struct bucket {
  std::int64_t lower;
  std::int64_t upper;
  std::int64_t count;
  friend bool operator==(const bucket&, const bucket&) = default;
};

/// A read-only view of quantize/lquantize/llquantize buckets (the words after any parameter
/// word). It borrows the words: keep the table it came from alive while using it.
class histogram {
 public:
  histogram(agg::kind k, std::uint64_t param, std::span<const std::uint64_t> buckets)
      : kind_(k), param_(param), counts_(buckets) {}

  agg::kind function() const { return kind_; }
  std::uint64_t param() const { return param_; }
  std::size_t size() const { return counts_.size(); }
  std::int64_t count(std::size_t i) const { return static_cast<std::int64_t>(counts_[i]); }

  bucket operator[](std::size_t i) const {
    constexpr auto lowest = std::numeric_limits<std::int64_t>::min();
    constexpr auto highest = std::numeric_limits<std::int64_t>::max();
    const bool last = i + 1 == size();
    switch (kind_) {
      case agg::kind::quantize: {
        namespace q = agg::quantize;
        if (i == 0) return {lowest, q::label(0), count(i)};
        if (last) return {q::label(i), highest, count(i)};
        const auto label = q::label(i);
        if (i < q::zero_bucket) return {2 * label + 1, label, count(i)};
        if (i == q::zero_bucket) return {0, 0, count(i)};
        return {label, 2 * label - 1, count(i)};
      }
      case agg::kind::lquantize: {
        const auto p = agg::lquantize_params::decode(param_);
        if (i == 0) return {lowest, std::int64_t{p.base} - 1, count(i)};
        if (last) return {p.overflow_start(), highest, count(i)};
        return {p.level_value(i), p.level_value(i) + p.step - 1, count(i)};
      }
      default: {
        const auto p = agg::llquantize_params::decode(param_);
        const auto labels = p.labels();
        const auto as_signed = [](std::uint64_t v) {
          return v > static_cast<std::uint64_t>(highest) ? highest : static_cast<std::int64_t>(v);
        };
        if (i == 0) return {lowest, as_signed(labels[0]) - 1, count(i)};
        if (last) return {as_signed(labels.back()), highest, count(i)};
        return {as_signed(labels[i]), as_signed(labels[i + 1]) - 1, count(i)};
      }
    }
  }

  /// Iterates buckets in order, lowest first.
  class iterator {
   public:
    using value_type = bucket;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const histogram* h, std::size_t i) : h_(h), i_(i) {}
    bucket operator*() const { return (*h_)[i_]; }
    iterator& operator++() { ++i_; return *this; }
    iterator operator++(int) { auto old = *this; ++i_; return old; }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }

   private:
    const histogram* h_ = nullptr;
    std::size_t i_ = 0;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }

 private:
  agg::kind kind_;
  std::uint64_t param_;
  std::span<const std::uint64_t> counts_;
};

}  // namespace dtpp
