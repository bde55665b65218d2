// A typed view of an aggregation table: keys as C++ values, values as Fn::value_type.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "dtpp/agg/functions.hpp"
#include "dtpp/agg/table.hpp"
#include "dtpp/agg/walk.hpp"

namespace dtpp::agg {

namespace detail {

// Strings reach visitors as std::string_view; everything else as it is stored.
template <class T>
decltype(auto) field_view(const T& field) {
  if constexpr (std::is_same_v<T, std::string>) return std::string_view(field);
  else return (field);
}

/// Calls visitor(key fields..., values...): a tuple key is spread into its fields, a single key
/// or a Hana struct is passed whole.
template <class Visitor, class Key, class... Values>
decltype(auto) invoke_with_key(Visitor&& visitor, const Key& key, Values&&... values) {
  if constexpr (is_tuple<Key>::value) {
    return std::apply(
        [&](const auto&... fields) {
          return std::invoke(visitor, field_view(fields)..., std::forward<Values>(values)...);
        },
        key);
  } else {
    return std::invoke(visitor, field_view(key), std::forward<Values>(values)...);
  }
}

}  // namespace detail

/// A snapshot of aggregation<Fn, Keys...>: the merged data at the moment snapshot() ran. Nothing
/// here changes when the aggregation is updated afterwards.
template <class Fn, class Key>
class snapshot {
 public:
  using value_type = typename Fn::value_type;

  snapshot(Fn fn, table<Key> t) : fn_(std::move(fn)), table_(std::move(t)) {}

  const table<Key>& data() const { return table_; }
  const Fn& function() const { return fn_; }
  std::size_t size() const { return table_.size(); }
  bool empty() const { return table_.empty(); }
  std::uint64_t normal() const { return table_.normal(); }

  const Key& key(std::size_t row) const { return table_.key(row); }
  /// The merged value of a row (histograms borrow the snapshot's words).
  value_type value(std::size_t row) const { return fn_.value(table_.words(row).data()); }
  /// The part of a row's value that one shard (thread) contributed.
  value_type shard_value(std::size_t row, std::size_t shard) const {
    if (table_.shards() == 0) return value(row);
    return fn_.value(table_.shard_words(row, shard).data());
  }
  /// Number of shards whose parts shard_value() can show.
  std::size_t shards() const { return table_.shards() == 0 ? 1 : table_.shards(); }

  /// Calls visitor(key fields..., value) for every row in the walk's order, e.g.
  /// `snap.walk(dtpp::order::keysorted, [](std::string_view name, std::uint64_t n) { ... });`
  template <class Visitor>
  void walk(order o, Visitor&& visitor, const sort_options& options = {}) const {
    const table<Key>* tables[] = {&table_};
    for (const row_ref r : walk_rows<Key>(tables, o, options))
      detail::invoke_with_key(visitor, key(r.row), value(r.row));
  }

 private:
  Fn fn_;
  table<Key> table_;
};

}  // namespace dtpp::agg

namespace dtpp {

/// Walks several snapshots that share a key type in one order, as libdtrace's walkers do over
/// all aggregations: visitor(key fields..., value) with the value of whichever aggregation the
/// row belongs to (so a visitor over different functions takes `const auto&`).
template <class Visitor, class Fn, class Key, class... Fns>
void walk(order o, const sort_options& options, Visitor&& visitor,
          const agg::snapshot<Fn, Key>& first, const agg::snapshot<Fns, Key>&... rest) {
  const agg::table<Key>* tables[] = {&first.data(), &rest.data()...};
  for (const agg::row_ref r : agg::walk_rows<Key>(tables, o, options)) {
    std::uint32_t index = 0;
    const auto visit_if_mine = [&](const auto& snap) {
      if (index++ == r.table)
        agg::detail::invoke_with_key(visitor, snap.key(r.row), snap.value(r.row));
    };
    visit_if_mine(first);
    (visit_if_mine(rest), ...);
  }
}

}  // namespace dtpp
