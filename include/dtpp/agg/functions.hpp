// The nine aggregating functions as policy types over DTrace's data words.
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "dtpp/agg/int128.hpp"
#include "dtpp/agg/kind.hpp"
#include "dtpp/agg/llquantize.hpp"
#include "dtpp/agg/lquantize.hpp"
#include "dtpp/agg/quantize.hpp"
#include "dtpp/agg/values.hpp"
#include "dtpp/agg/words.hpp"

namespace dtpp {

// Every policy offers the same members, which dtpp::agg::function dispatches to at run time:
//   kind, param(), words(), init(w), add(w, value, incr), merge(into, from),
//   order(w) (where the value stands in DTrace's value order), value(w) (the typed value).
// Words are updated through agg::detail::load/store so that snapshots may read them live.

namespace agg {
/// Where a value stands in DTrace's value order: compare `primary` (the signed value, the average,
/// the stddev, or a histogram's weighted bucket sum), then `tie` (a histogram's zero bucket).
/// A long double holds every 64-bit value exactly.
struct value_order {
  long double primary = 0;
  std::int64_t tie = 0;
  friend auto operator<=>(const value_order&, const value_order&) = default;
};
}  // namespace agg

namespace agg::detail {
inline std::int64_t as_signed(std::uint64_t w) { return static_cast<std::int64_t>(w); }
inline void add_words(std::uint64_t* into, const std::uint64_t* from, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) store(into[i], load(into[i]) + load(from[i]));
}
// Histogram order: the weighted sum of the buckets, then the count of the bucket weighted zero.
template <class Weight>
value_order weighted_order(const std::uint64_t* w, std::size_t n, Weight weight,
                           std::size_t zero_index) {
  long double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += weight(i) * as_signed(load(w[i]));
  return {sum, zero_index < n ? as_signed(load(w[zero_index])) : 0};
}
}  // namespace agg::detail

/// count(): one word, +1 per call.
struct Count {
  static constexpr agg::kind kind = agg::kind::count;
  using value_type = std::uint64_t;
  std::uint64_t param() const { return 0; }
  std::size_t words() const { return 1; }
  void init(std::uint64_t* w) const { agg::detail::store(w[0], 0); }
  void add(std::uint64_t* w, std::int64_t, std::int64_t) const { agg::detail::bump(w[0], 1); }
  void merge(std::uint64_t* into, const std::uint64_t* from) const {
    agg::detail::add_words(into, from, 1);
  }
  agg::value_order order(const std::uint64_t* w) const {
    return {static_cast<long double>(agg::detail::as_signed(agg::detail::load(w[0]))), 0};
  }
  value_type value(const std::uint64_t* w) const { return agg::detail::load(w[0]); }
};

/// sum(x): one word, 64-bit wrap-around like DTrace.
struct Sum : Count {
  static constexpr agg::kind kind = agg::kind::sum;
  using value_type = std::int64_t;
  void add(std::uint64_t* w, std::int64_t x, std::int64_t) const {
    agg::detail::bump(w[0], static_cast<std::uint64_t>(x));
  }
  value_type value(const std::uint64_t* w) const {
    return agg::detail::as_signed(agg::detail::load(w[0]));
  }
};

/// min(x): one word starting at INT64_MAX.
struct Min : Sum {
  static constexpr agg::kind kind = agg::kind::min;
  void init(std::uint64_t* w) const {
    agg::detail::store(w[0], static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
  }
  void add(std::uint64_t* w, std::int64_t x, std::int64_t) const {
    if (x < value(w)) agg::detail::store(w[0], static_cast<std::uint64_t>(x));
  }
  void merge(std::uint64_t* into, const std::uint64_t* from) const { add(into, value(from), 1); }
};

/// max(x): one word starting at INT64_MIN.
struct Max : Sum {
  static constexpr agg::kind kind = agg::kind::max;
  void init(std::uint64_t* w) const {
    agg::detail::store(w[0], static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min()));
  }
  void add(std::uint64_t* w, std::int64_t x, std::int64_t) const {
    if (x > value(w)) agg::detail::store(w[0], static_cast<std::uint64_t>(x));
  }
  void merge(std::uint64_t* into, const std::uint64_t* from) const { add(into, value(from), 1); }
};

/// avg(x): [0] count, [1] sum.
struct Avg {
  static constexpr agg::kind kind = agg::kind::avg;
  using value_type = dtpp::avg;
  std::uint64_t param() const { return 0; }
  std::size_t words() const { return 2; }
  void init(std::uint64_t* w) const {
    agg::detail::store(w[0], 0);
    agg::detail::store(w[1], 0);
  }
  void add(std::uint64_t* w, std::int64_t x, std::int64_t) const {
    agg::detail::bump(w[0], 1);
    agg::detail::bump(w[1], static_cast<std::uint64_t>(x));
  }
  void merge(std::uint64_t* into, const std::uint64_t* from) const {
    agg::detail::add_words(into, from, 2);
  }
  agg::value_order order(const std::uint64_t* w) const {
    return {static_cast<long double>(value(w).value()), 0};
  }
  value_type value(const std::uint64_t* w) const {
    return {agg::detail::load(w[0]), agg::detail::as_signed(agg::detail::load(w[1]))};
  }
};

/// stddev(x): [0] count, [1] sum, [2] low and [3] high 64 bits of the 128-bit sum of x^2.
struct StdDev {
  static constexpr agg::kind kind = agg::kind::stddev;
  using value_type = dtpp::stddev;
  std::uint64_t param() const { return 0; }
  std::size_t words() const { return 4; }
  void init(std::uint64_t* w) const {
    for (int i = 0; i < 4; ++i) agg::detail::store(w[i], 0);
  }
  void add(std::uint64_t* w, std::int64_t x, std::int64_t) const {
    const agg::uint128 magnitude =
        x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
    add_squares(w, magnitude * magnitude);
    agg::detail::bump(w[0], 1);
    agg::detail::bump(w[1], static_cast<std::uint64_t>(x));
  }
  void merge(std::uint64_t* into, const std::uint64_t* from) const {
    agg::detail::add_words(into, from, 2);
    add_squares(into, squares(from));
  }
  agg::value_order order(const std::uint64_t* w) const {
    return {static_cast<long double>(value(w).value()), 0};
  }
  value_type value(const std::uint64_t* w) const {
    return {agg::detail::load(w[0]), agg::detail::as_signed(agg::detail::load(w[1])), squares(w)};
  }

 private:
  static agg::uint128 squares(const std::uint64_t* w) {
    return agg::make_uint128(agg::detail::load(w[3]), agg::detail::load(w[2]));
  }
  static void add_squares(std::uint64_t* w, agg::uint128 delta) {
    const auto total = squares(w) + delta;
    agg::detail::store(w[2], static_cast<std::uint64_t>(total));
    agg::detail::store(w[3], static_cast<std::uint64_t>(total >> 64));
  }
};

/// quantize(x[, incr]): 127 power-of-two buckets.
struct Quantize {
  static constexpr agg::kind kind = agg::kind::quantize;
  using value_type = dtpp::histogram;
  std::uint64_t param() const { return 0; }
  std::size_t words() const { return agg::quantize::buckets; }
  void init(std::uint64_t* w) const {
    for (std::size_t i = 0; i < words(); ++i) agg::detail::store(w[i], 0);
  }
  void add(std::uint64_t* w, std::int64_t x, std::int64_t incr) const {
    agg::detail::bump(w[agg::quantize::bucket(x)], static_cast<std::uint64_t>(incr));
  }
  void merge(std::uint64_t* into, const std::uint64_t* from) const {
    agg::detail::add_words(into, from, words());
  }
  agg::value_order order(const std::uint64_t* w) const {
    const auto weight = [](std::size_t i) {
      return static_cast<long double>(agg::quantize::label(i));
    };
    return agg::detail::weighted_order(w, words(), weight, agg::quantize::zero_bucket);
  }
  value_type value(const std::uint64_t* w) const { return {kind, 0, {w, words()}}; }
};

namespace agg::detail {
// lquantize and llquantize: DTrace's parameter word first, then buckets chosen by Params.
template <agg::kind Kind, class Params>
struct parameterized_histogram {
  static constexpr agg::kind kind = Kind;
  using value_type = dtpp::histogram;

  Params params;

  std::uint64_t param() const { return params.encode(); }
  std::size_t words() const { return 1 + params.buckets(); }
  void init(std::uint64_t* w) const {
    store(w[0], param());
    for (std::size_t i = 1; i < words(); ++i) store(w[i], 0);
  }
  void add(std::uint64_t* w, std::int64_t x, std::int64_t incr) const {
    bump(w[1 + params.bucket(x)], static_cast<std::uint64_t>(incr));
  }
  void merge(std::uint64_t* into, const std::uint64_t* from) const {
    add_words(into + 1, from + 1, words() - 1);
  }
  value_type value(const std::uint64_t* w) const { return {kind, param(), {w + 1, words() - 1}}; }
};
}  // namespace agg::detail

/// lquantize(x, base, limit[, step[, incr]]): the parameter word, then underflow, levels, overflow.
struct LQuantize : agg::detail::parameterized_histogram<agg::kind::lquantize, agg::lquantize_params> {
  LQuantize(std::int64_t base, std::int64_t limit, std::int64_t step = 1)
      : parameterized_histogram{agg::lquantize_params::make(base, limit, step)} {}
  explicit LQuantize(agg::lquantize_params p) : parameterized_histogram{p} {}

  agg::value_order order(const std::uint64_t* w) const {
    const auto n = params.buckets();
    const auto weight = [&](std::size_t i) -> long double {
      if (i == 0) return static_cast<long double>(params.base) - 1;
      if (i + 1 == n) return static_cast<long double>(params.overflow_start()) + 1;
      return static_cast<long double>(params.level_value(i));
    };
    std::size_t zero = n;  // the level whose weight is exactly 0, if any
    for (std::size_t i = 0; i < n; ++i)
      if (weight(i) == 0) { zero = i; break; }
    return agg::detail::weighted_order(w + 1, n, weight, zero);
  }
};

/// llquantize(x, factor, low, high, nsteps[, incr]): the parameter word, then log-linear buckets.
struct LLQuantize
    : agg::detail::parameterized_histogram<agg::kind::llquantize, agg::llquantize_params> {
  LLQuantize(std::int64_t factor, std::int64_t low, std::int64_t high, std::int64_t nsteps)
      : parameterized_histogram{agg::llquantize_params::make(factor, low, high, nsteps)} {}
  explicit LLQuantize(agg::llquantize_params p) : parameterized_histogram{p} {}

  agg::value_order order(const std::uint64_t* w) const {
    const auto labels = params.labels();
    const auto n = labels.size();
    const auto weight = [&](std::size_t i) -> long double {
      if (i == 0) return static_cast<long double>(labels[0]) - 1;
      return static_cast<long double>(labels[i]);
    };
    return agg::detail::weighted_order(w + 1, n, weight, 0);
  }
};

namespace agg {

/// Any of the nine policies.
template <class Fn>
concept function_policy = requires(const Fn& fn, std::uint64_t* w, const std::uint64_t* c) {
  { Fn::kind } -> std::convertible_to<agg::kind>;
  { fn.words() } -> std::convertible_to<std::size_t>;
  fn.init(w);
  fn.add(w, std::int64_t{}, std::int64_t{});
  fn.merge(w, c);
  { fn.order(c) } -> std::same_as<agg::value_order>;
  fn.value(c);
};

/// An aggregating function known at run time: its kind and DTrace's parameter word.
struct function {
  agg::kind kind = agg::kind::count;
  std::uint64_t param = 0;

  template <function_policy Fn>
  static function of(const Fn& fn) { return {Fn::kind, fn.param()}; }

  /// Calls f with the policy object this function stands for.
  template <class F>
  decltype(auto) visit(F&& f) const {
    switch (kind) {
      case agg::kind::count: return f(Count{});
      case agg::kind::sum: return f(Sum{});
      case agg::kind::min: return f(Min{});
      case agg::kind::max: return f(Max{});
      case agg::kind::avg: return f(Avg{});
      case agg::kind::stddev: return f(StdDev{});
      case agg::kind::quantize: return f(Quantize{});
      case agg::kind::lquantize: return f(LQuantize{lquantize_params::decode(param)});
      default: return f(LLQuantize{llquantize_params::decode(param)});
    }
  }

  // The policy operations, dispatched at run time (for aggregations known only from D).
  std::size_t words() const {
    return visit([](const auto& fn) { return fn.words(); });
  }
  void init(std::uint64_t* w) const {
    visit([&](const auto& fn) { fn.init(w); });
  }
  void add(std::uint64_t* w, std::int64_t value, std::int64_t incr) const {
    visit([&](const auto& fn) { fn.add(w, value, incr); });
  }
  void merge(std::uint64_t* into, const std::uint64_t* from) const {
    visit([&](const auto& fn) { fn.merge(into, from); });
  }
  friend bool operator==(const function&, const function&) = default;
};

}  // namespace agg
}  // namespace dtpp
