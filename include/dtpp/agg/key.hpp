// Typed aggregation keys: integers, strings, tuples of them and Boost.Hana structs, with
// DTrace's key order, hashing and the view types that lookups take.
#pragma once

#include <boost/hana/accessors.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/length.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/size.hpp>
#include <boost/hana/concept/struct.hpp>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dtpp/agg/symbol_form.hpp"

namespace dtpp::agg {

/// The type of one key record, as an aggregation descriptor lists it.
struct key_type {
  /// A stack is the bytes of a stack() record, a ustack a ustack() record's (the process id,
  /// then the program counters): both compared bytewise, as DTrace compares them.
  enum class category : std::uint8_t { integer, string, stack, ustack } kind = category::integer;
  std::uint32_t size = 8;   ///< bytes of an integer or a stack; strsize of a string (0: unbounded)
  bool is_signed = true;
  /// A stack of one frame that a symbol function made prints and keys as agg::symbol_form says.
  symbol_form form = symbol_form::none;
  /// Whether a record of this type keeps bytes (a string or a stack) rather than an integer.
  bool holds_bytes() const { return kind != category::integer; }
  bool is_stack() const { return kind == category::stack || kind == category::ustack; }
  friend bool operator==(const key_type&, const key_type&) = default;
};

/// A key field: any integer type except bool, or a string.
template <class T>
concept integer_field = std::integral<T> && !std::same_as<T, bool>;
template <class T>
concept string_field = std::same_as<T, std::string>;
template <class T>
concept key_field = integer_field<T> || string_field<T>;

/// A struct adapted with BOOST_HANA_DEFINE_STRUCT.
template <class T>
concept hana_struct = boost::hana::Struct<T>::value;

namespace detail {

template <class T> struct is_tuple : std::false_type {};
template <class... T> struct is_tuple<std::tuple<T...>> : std::true_type {};

// Calls f(field) for every field of a key, in order.
template <class K, class F>
void for_each_field(const K& key, F&& f) {
  if constexpr (key_field<K> || std::same_as<K, std::string_view>) {
    f(key);
  } else if constexpr (is_tuple<K>::value) {
    std::apply([&](const auto&... field) { (f(field), ...); }, key);
  } else {
    boost::hana::for_each(boost::hana::accessors<K>(),
                          [&](auto pair) { f(boost::hana::second(pair)(key)); });
  }
}

// Calls f(field_of_a, field_of_b) for every field of two keys of the same shape.
template <class A, class B, class F>
void for_each_field_pair(const A& a, const B& b, F&& f) {
  if constexpr (is_tuple<A>::value) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (f(std::get<I>(a), std::get<I>(b)), ...);
    }(std::make_index_sequence<std::tuple_size_v<A>>{});
  } else if constexpr (hana_struct<A>) {
    boost::hana::for_each(boost::hana::accessors<A>(), [&](auto pair) {
      const auto get = boost::hana::second(pair);
      f(get(a), get(b));
    });
  } else {
    f(a, b);
  }
}

// The type a lookup takes for a stored key: strings are looked up by std::string_view.
template <class K> struct view_of { using type = K; };
template <> struct view_of<std::string> { using type = std::string_view; };
template <class... K> struct view_of<std::tuple<K...>> {
  using type = std::tuple<typename view_of<K>::type...>;
};

template <class K>
constexpr std::size_t field_count() {
  if constexpr (key_field<K>) return 1;
  else if constexpr (is_tuple<K>::value) return std::tuple_size_v<K>;
  else return decltype(boost::hana::length(boost::hana::accessors<K>()))::value;
}

inline std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}
template <integer_field T>
std::uint64_t field_hash(T v) {
  return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}
// Eight bytes at a time, the tail read as one overlapping word, so that short keys (names,
// paths) hash in a few multiplications with no byte loop.
inline std::uint64_t load_bytes(const char* p, std::size_t n) {
  std::uint64_t w = 0;
  if (n == 8) {
    std::memcpy(&w, p, 8);
  } else if (n >= 4) {
    std::uint32_t low, high;
    std::memcpy(&low, p, 4);
    std::memcpy(&high, p + n - 4, 4);
    w = std::uint64_t{high} << 32 | low;
  } else if (n > 0) {
    w = std::uint64_t{static_cast<unsigned char>(p[0])} << 16 |
        std::uint64_t{static_cast<unsigned char>(p[n / 2])} << 8 |
        static_cast<unsigned char>(p[n - 1]);
  }
  return w;
}
inline std::uint64_t field_hash(std::string_view s) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ s.size();
  const char* p = s.data();
  std::size_t n = s.size();
  for (; n > 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  // The last (up to) eight bytes: overlapping the previous word when the string is long enough.
  const std::uint64_t tail = s.size() >= 8 ? load_bytes(s.data() + s.size() - 8, 8) : load_bytes(p, n);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 32;
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 29);
}

template <integer_field T>
bool field_equal(T a, T b) {
  return a == b;
}
// Short strings compare as at most two overlapping words, with no call to memcmp.
inline bool field_equal(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (n > 16) return std::memcmp(a.data(), b.data(), n) == 0;
  if (n > 8)
    return load_bytes(a.data(), 8) == load_bytes(b.data(), 8) &&
           load_bytes(a.data() + n - 8, 8) == load_bytes(b.data() + n - 8, 8);
  return load_bytes(a.data(), n) == load_bytes(b.data(), n);
}

// DTrace orders integer records as unsigned values of their size, strings bytewise.
template <integer_field T>
int field_compare(T a, T b) {
  const auto ua = static_cast<std::make_unsigned_t<T>>(a);
  const auto ub = static_cast<std::make_unsigned_t<T>>(b);
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}
inline int field_compare(std::string_view a, std::string_view b) {
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

template <class T>
key_type field_type() {
  if constexpr (string_field<T>) return {key_type::category::string, 0, false};
  else return {key_type::category::integer, sizeof(T), std::is_signed_v<T>};
}

}  // namespace detail

/// What a typed key needs: its stored type, the lookup view, hashing, equality and order.
template <class Key>
struct key_traits {
  static_assert(key_field<Key> || detail::is_tuple<Key>::value || hana_struct<Key>,
                "dtpp: an aggregation key must be an integer type, std::string, a std::tuple of "
                "them, or a struct adapted with BOOST_HANA_DEFINE_STRUCT");

  static constexpr std::size_t fields = detail::field_count<Key>();

  /// What lookups take: Key with every std::string replaced by std::string_view.
  using view = typename detail::view_of<Key>::type;

  template <class K>
  static std::uint64_t hash(const K& key) {
    // A single field needs no combining: one multiply for an integer, the string hash as it is.
    if constexpr (integer_field<K>) {
      const auto bits = static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<K>>(key));
      const std::uint64_t h = (bits ^ (bits >> 32)) * 0x9e3779b97f4a7c15ULL;
      return h ^ (h >> 32);  // the product's high half reaches the low bits the index uses
    }
    else if constexpr (std::same_as<K, std::string_view> || string_field<K>)
      return detail::field_hash(key);
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    detail::for_each_field(key, [&](const auto& f) {
      h = detail::mix(h ^ detail::field_hash(f)) + 0x9e3779b97f4a7c15ULL;
    });
    return h;
  }

  template <class K>
  static bool equal(const Key& a, const K& b) {
    bool same = true;
    detail::for_each_field_pair(a, b, [&](const auto& fa, const auto& fb) {
      same = same && detail::field_equal(fa, fb);
    });
    return same;
  }

  static Key make(const view& v) {
    if constexpr (std::same_as<view, Key>) return v;
    else if constexpr (string_field<Key>) return Key(v);
    else return std::apply([](const auto&... f) { return Key(f...); }, v);
  }

  /// DTrace's key order starting at field `keypos` and wrapping around (aggsortkeypos).
  static int compare(const Key& a, const Key& b, std::size_t keypos = 0) {
    if (keypos >= fields) keypos = 0;
    int result = 0;
    for (int pass = 0; pass < 2 && result == 0; ++pass) {
      std::size_t index = 0;
      detail::for_each_field_pair(a, b, [&](const auto& fa, const auto& fb) {
        const bool in_pass = pass == 0 ? index >= keypos : index < keypos;
        if (result == 0 && in_pass) result = detail::field_compare(fa, fb);
        ++index;
      });
    }
    return result;
  }

  static std::vector<key_type> types() {
    std::vector<key_type> out;
    detail::for_each_field(Key{}, [&](const auto& f) {
      out.push_back(detail::field_type<std::decay_t<decltype(f)>>());
    });
    return out;
  }
};

/// The key an aggregation<Fn, Keys...> stores: std::tuple<> for none, the type itself for one,
/// a std::tuple for several.
template <class... Keys>
struct key_of {
  using type = std::tuple<Keys...>;
};
template <class Key>
struct key_of<Key> {
  using type = Key;
};
template <class... Keys>
using key_of_t = typename key_of<Keys...>::type;

}  // namespace dtpp::agg
