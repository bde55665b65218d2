// What printf, printa and trace() print: traced values as records hold them, and aggregated
// values as printa's %@ conversions see them.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dtpp/agg/functions.hpp"

namespace dtpp::print {

/// One traced value, as a record of a probe's data (or a key of a tuple) holds it.
///
///     traced::integer(-2, 1, true)   // (signed char)-2: bits 0xfe, size 1
///     traced::string("hello")
struct traced {
  enum class kind { integer, string, stack, symbol };

  kind type = kind::integer;
  std::uint64_t bits = 0;             ///< an integer's bits, zero-extended from `size` bytes
  std::uint32_t size = 8;             ///< an integer's size in bytes: 1, 2, 4 or 8
  bool is_signed = true;              ///< whether the integer's D type is signed
  std::string text;                   ///< a string (up to its first NUL), a symbol's name
  std::vector<std::string> frames;    ///< a stack's frames, named (see frames.hpp)

  static traced integer(std::int64_t value, std::uint32_t size, bool is_signed) {
    traced t;
    t.size = size;
    t.is_signed = is_signed;
    const auto bits = static_cast<std::uint64_t>(value);
    t.bits = size >= 8 ? bits : bits & ((std::uint64_t{1} << (8 * size)) - 1);
    return t;
  }
  static traced string(std::string text) {
    traced t;
    t.type = kind::string;
    t.size = 0;
    t.text = std::move(text);
    return t;
  }
  static traced stack(std::vector<std::string> frames) {
    traced t;
    t.type = kind::stack;
    t.size = 0;
    t.frames = std::move(frames);
    return t;
  }
  /// What sym(), usym(), uaddr(), mod() ... name: "a.out`main", "libc.so.6" (see frames.hpp).
  static traced symbol(std::string name) {
    auto t = string(std::move(name));
    t.type = kind::symbol;
    return t;
  }

  /// The integer sign-extended from its size, whatever its signedness.
  std::int64_t as_signed() const {
    if (size == 0 || size >= 8) return static_cast<std::int64_t>(bits);
    const unsigned shift = 64 - 8 * size;
    return static_cast<std::int64_t>(bits << shift) >> shift;
  }
  /// The integer zero-extended from its size.
  std::uint64_t as_unsigned() const {
    if (size == 0 || size >= 8) return bits;
    return bits & ((std::uint64_t{1} << (8 * size)) - 1);
  }
};

/// One aggregation's value for a printa() %@ conversion: its function, its data words in
/// DTrace's layout (fewer words than the function keeps, an empty span for instance, stand for a
/// zero-filled value) and normalize()'s divisor.
struct aggregated {
  agg::function fn;
  std::span<const std::uint64_t> words;
  std::uint64_t normal = 1;
};

namespace detail {

// a / b in 64-bit signed arithmetic that never traps: b == 0 yields a, b == -1 wraps.
inline std::int64_t divide(std::int64_t a, std::int64_t b) {
  if (b == 0) return a;
  if (b == -1) return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(a));
  return a / b;
}

// value / normal, signed (DTrace divides unsigned in places; dtpp keeps negative values
// negative). A divisor of 0 counts as 1; one above INT64_MAX as INT64_MAX.
inline std::int64_t normalized(std::int64_t value, std::uint64_t normal) {
  constexpr auto top = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return divide(value, static_cast<std::int64_t>(normal > top ? top : normal));
}

// The words of `a`, or zero-filled words (in `storage`) when it holds fewer than its function
// keeps.
inline const std::uint64_t* words_or_zero(const aggregated& a,
                                          std::vector<std::uint64_t>& storage) {
  if (a.words.size() >= a.fn.words()) return a.words.data();
  storage.assign(a.fn.words(), 0);
  return storage.data();
}

}  // namespace detail

/// The 64-bit integer DTrace prints for a value of count/sum/min/max/avg/stddev: count unsigned,
/// the others signed; sum/min/max divided by the normalization, avg = sum / normal / count
/// (signed, 0 for no samples), stddev as stddev::value(normal) computes it. For histograms: 0
/// (they print as a whole).
inline traced scalar_value(const aggregated& a) {
  const std::uint64_t normal = a.normal == 0 ? 1 : a.normal;
  std::vector<std::uint64_t> storage;
  const std::uint64_t* words = detail::words_or_zero(a, storage);
  return a.fn.visit([&](const auto& policy) {
    const auto value = policy.value(words);
    using value_type = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<value_type, dtpp::histogram>) {
      return traced::integer(0, 8, true);
    } else if constexpr (std::is_same_v<value_type, dtpp::avg>) {
      const auto count = static_cast<std::int64_t>(value.count);
      const auto mean =
          count == 0 ? 0 : detail::divide(detail::normalized(value.sum, normal), count);
      return traced::integer(mean, 8, true);
    } else if constexpr (std::is_same_v<value_type, dtpp::stddev>) {
      constexpr auto top = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      const auto sd = value.value(normal > top ? top : normal);
      return traced::integer(static_cast<std::int64_t>(sd), 8, true);
    } else if constexpr (std::is_same_v<value_type, std::uint64_t>) {  // count
      return traced::integer(static_cast<std::int64_t>(value / normal), 8, false);
    } else {
      return traced::integer(detail::normalized(value, normal), 8, true);
    }
  });
}

}  // namespace dtpp::print
