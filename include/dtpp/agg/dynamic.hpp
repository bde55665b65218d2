// The run-time form of aggregations, for programs known only once D is compiled: keys as typed
// records, data as raw words, and checked typed views over them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "dtpp/agg/functions.hpp"
#include "dtpp/agg/key.hpp"
#include "dtpp/agg/snapshot.hpp"
#include "dtpp/agg/table.hpp"

namespace dtpp::agg {

/// One key record of a D tuple: an integer (its bits, zero-extended), or the bytes of a string
/// or a stack.
struct record {
  key_type type;
  std::uint64_t integer = 0;
  std::string string;

  static record of_integer(key_type type, std::uint64_t bits) { return {type, bits, {}}; }
  static record of_string(std::string text, std::uint32_t strsize = 256) {
    return {{key_type::category::string, strsize, false}, 0, std::move(text)};
  }
  friend bool operator==(const record&, const record&) = default;
};

/// A D tuple's keys.
struct dynamic_key {
  std::vector<record> records;
  friend bool operator==(const dynamic_key&, const dynamic_key&) = default;
};

/// The run-time table: what engines fill from D programs (issues #4 and #5).
using dynamic_table = table<dynamic_key>;

template <>
struct key_traits<dynamic_key> {
  using view = dynamic_key;

  static std::uint64_t hash(const dynamic_key& key) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const auto& r : key.records) {
      const auto field = r.type.holds_bytes() ? detail::field_hash(std::string_view(r.string))
                             : r.integer;
      h = detail::mix(h ^ field) + 0x9e3779b97f4a7c15ULL;
    }
    return h;
  }
  // Strings compare as typed keys' do (short ones as two words, no memcmp call): lookups from
  // engines compare one key per update.
  static bool equal(const dynamic_key& a, const dynamic_key& b) {
    if (a.records.size() != b.records.size()) return false;
    for (std::size_t i = 0; i < a.records.size(); ++i) {
      const auto& ra = a.records[i];
      const auto& rb = b.records[i];
      if (ra.type != rb.type || ra.integer != rb.integer ||
          !detail::field_equal(std::string_view(ra.string), std::string_view(rb.string)))
        return false;
    }
    return true;
  }
  static dynamic_key make(const dynamic_key& v) { return v; }

  /// DTrace's order: fewer records first; then per record (from keypos, wrapping) smaller record
  /// first, integers as unsigned values, strings and stacks bytewise.
  static int compare(const dynamic_key& a, const dynamic_key& b, std::size_t keypos = 0) {
    const auto n = a.records.size();
    if (n != b.records.size()) return n < b.records.size() ? -1 : 1;
    if (keypos >= n) keypos = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& ra = a.records[(keypos + i) % n];
      const auto& rb = b.records[(keypos + i) % n];
      if (ra.type.size != rb.type.size) return ra.type.size < rb.type.size ? -1 : 1;
      const int c = ra.type.holds_bytes()
                        ? detail::field_compare(std::string_view(ra.string), rb.string)
                        : detail::field_compare(ra.integer, rb.integer);
      if (c != 0) return c;
    }
    return 0;
  }
};

/// A typed view asked of a run-time aggregation whose function or keys differ.
class type_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace detail {

template <function_policy Fn>
Fn policy_of(std::uint64_t param) {
  if constexpr (Fn::kind == kind::lquantize) return Fn(lquantize_params::decode(param));
  else if constexpr (Fn::kind == kind::llquantize) return Fn(llquantize_params::decode(param));
  else return Fn{};
}

inline std::string describe(const key_type& t) {
  if (t.kind == key_type::category::string) return "string";
  if (t.holds_bytes()) return "stack";
  return std::string(t.is_signed ? "int" : "uint") + std::to_string(t.size * 8);
}

template <class T>
T field_from(const record& r) {
  if constexpr (std::is_same_v<T, std::string>) return r.string;
  else return static_cast<T>(r.integer);
}

template <class... Keys, std::size_t... I>
key_of_t<Keys...> typed_key(const dynamic_key& k, std::index_sequence<I...>) {
  if constexpr (sizeof...(Keys) == 1) return field_from<Keys...>(k.records[0]);
  else return key_of_t<Keys...>(field_from<Keys>(k.records[I])...);
}

}  // namespace detail

/// A typed copy of a run-time aggregation, checked first: the function must be Fn and the keys
/// must be Keys... (integers of the same size and signedness, strings as std::string), else
/// type_error says what the aggregation really holds.
template <function_policy Fn, class... Keys>
snapshot<Fn, key_of_t<Keys...>> typed_view(const dynamic_table& t) {
  static_assert((key_field<Keys> && ...),
                "dtpp: keys of a typed view must be integer types or std::string");
  const auto& d = t.desc();
  const std::string at = "@" + d.name;
  if (d.fn.kind != Fn::kind)
    throw type_error("dtpp: " + at + " holds " + std::string(name(d.fn.kind)) +
                     "() values, not " + std::string(name(Fn::kind)) + "()");
  const std::vector<key_type> wanted = {detail::field_type<Keys>()...};
  if (wanted.size() != d.keys.size())
    throw type_error("dtpp: " + at + " has " + std::to_string(d.keys.size()) + " keys, not " +
                     std::to_string(wanted.size()));
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const bool same_kind = wanted[i].kind == d.keys[i].kind;
    const bool is_string = d.keys[i].kind == key_type::category::string;  // stacks never match
    if (!same_kind || (!is_string && (wanted[i].size != d.keys[i].size ||
                                      wanted[i].is_signed != d.keys[i].is_signed)))
      throw type_error("dtpp: key #" + std::to_string(i + 1) + " of " + at + " is " +
                       detail::describe(d.keys[i]) + ", not " + detail::describe(wanted[i]));
  }
  using key = key_of_t<Keys...>;
  descriptor typed = d;
  table<key> out(std::move(typed), t.shards());
  out.set_normal(t.normal());
  out.reserve(t.size());
  for (std::size_t row = 0; row < t.size(); ++row) {
    const auto r = out.add_row(
        detail::typed_key<Keys...>(t.key(row), std::index_sequence_for<Keys...>{}));
    std::copy(t.words(row).begin(), t.words(row).end(), out.words(r).begin());
    for (std::size_t s = 0; s < t.shards(); ++s)
      std::copy(t.shard_words(row, s).begin(), t.shard_words(row, s).end(),
                out.shard_words(r, s).begin());
  }
  return {detail::policy_of<Fn>(d.fn.param), std::move(out)};
}

}  // namespace dtpp::agg
