// DTrace's walk orders over one or several aggregation tables, defined once for printing,
// printa and the API.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "dtpp/agg/table.hpp"

namespace dtpp {

/// libdtrace's walkers. `sorted` is the default walk of dtrace(1) and dtrace_aggregate_print(),
/// shaped by the aggsortkey / aggsortrev / aggsortkeypos options; the others ignore them.
enum class order {
  sorted,
  unsorted,
  keysorted,
  valsorted,
  keyrevsorted,
  valrevsorted,
  keyvarsorted,
  valvarsorted,
  keyvarrevsorted,
  valvarrevsorted,
};

/// The aggsort* options.
struct sort_options {
  bool sortkey = false;     ///< aggsortkey: order by key, not value
  bool sortrev = false;     ///< aggsortrev: reverse every comparison
  std::size_t keypos = 0;   ///< aggsortkeypos: first key compared (wraps around)
  std::size_t pos = 0;      ///< aggsortpos: the joined aggregation whose value orders bundles
};

}  // namespace dtpp

namespace dtpp::agg {

/// One row of one of the tables a walk covers.
struct row_ref {
  std::uint32_t table;
  std::uint32_t row;
};

namespace detail {

template <class T>
int three_way(const T& a, const T& b) {
  return a < b ? -1 : b < a ? 1 : 0;
}

// Every comparison a walk is made of, over rows of tables that share a key type.
template <class Key>
class row_compare {
 public:
  explicit row_compare(std::span<const table<Key>* const> tables) : tables_(tables) {
    std::size_t total = 0;
    for (const auto* t : tables) {
      offsets_.push_back(total);
      total += t->size();
    }
  }

  /// Computes the value orders that val() needs; only value-sorted walks pay for it.
  void prepare_values() {
    for (const auto* t : tables_)
      t->desc().fn.visit([&](const auto& fn) {
        for (std::size_t row = 0; row < t->size(); ++row)
          values_.push_back(fn.order(t->words(row).data()));
      });
  }

  int var(row_ref a, row_ref b) const {
    return three_way(tables_[a.table]->desc().varid, tables_[b.table]->desc().varid);
  }
  int key(row_ref a, row_ref b, std::size_t keypos) const {
    const Key& ka = tables_[a.table]->key(a.row);
    const Key& kb = tables_[b.table]->key(b.row);
    return key_traits<Key>::compare(ka, kb, keypos);
  }
  // Values of different aggregations compare by key count, then function, then value.
  int val(row_ref a, row_ref b) const {
    if (a.table != b.table) {
      const auto& da = tables_[a.table]->desc();
      const auto& db = tables_[b.table]->desc();
      if (int c = three_way(da.keys.size(), db.keys.size())) return c;
      if (int c = three_way(da.fn.kind, db.fn.kind)) return c;
    }
    return three_way(values_[offsets_[a.table] + a.row], values_[offsets_[b.table] + b.row]);
  }

 private:
  std::span<const table<Key>* const> tables_;
  std::vector<std::size_t> offsets_;
  std::vector<value_order> values_;
};

}  // namespace detail

/// The rows of `tables` in the order a walk visits them.
template <class Key>
std::vector<row_ref> walk_rows(std::span<const table<Key>* const> tables, order o,
                               const sort_options& options = {}) {
  std::vector<row_ref> rows;
  std::size_t total = 0;
  for (const auto* t : tables) total += t->size();
  rows.reserve(total);
  for (std::uint32_t t = 0; t < tables.size(); ++t)
    for (std::uint32_t r = 0; r < tables[t]->size(); ++r) rows.push_back({t, r});
  if (o == order::unsorted) return rows;

  bool reverse = false;
  std::size_t keypos = 0;
  switch (o) {
    case order::sorted:
      o = options.sortkey ? order::keysorted : order::valsorted;
      reverse = options.sortrev;
      keypos = options.keypos;
      break;
    case order::keyrevsorted: o = order::keysorted; reverse = true; break;
    case order::valrevsorted: o = order::valsorted; reverse = true; break;
    case order::keyvarrevsorted: o = order::keyvarsorted; reverse = true; break;
    case order::valvarrevsorted: o = order::valvarsorted; reverse = true; break;
    default: break;
  }

  // One table of integer keys walked by key: the order is that of the keys' unsigned values, so
  // sort (value, row) pairs in place of rows compared through their tables.
  if constexpr (integer_field<Key>) {
    if (tables.size() == 1 && o == order::keysorted) {
      using bits = std::make_unsigned_t<Key>;
      std::vector<std::pair<bits, std::uint32_t>> keyed(rows.size());
      for (std::uint32_t r = 0; r < rows.size(); ++r)
        keyed[r] = {static_cast<bits>(tables[0]->key(r)), r};
      if (reverse)
        std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a > b; });
      else
        std::sort(keyed.begin(), keyed.end());
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i].row = keyed[i].second;
      return rows;
    }
  }

  detail::row_compare<Key> cmp(tables);
  if (o == order::valsorted || o == order::valvarsorted) cmp.prepare_values();
  const auto compare = [&](row_ref a, row_ref b) {
    int c = 0;
    switch (o) {
      case order::keysorted:
        if ((c = cmp.var(a, b))) return c;
        return cmp.key(a, b, keypos);
      case order::valsorted:
        if ((c = cmp.var(a, b)) || (c = cmp.val(a, b))) return c;
        return cmp.key(a, b, keypos);
      case order::keyvarsorted:
        if ((c = cmp.key(a, b, 0))) return c;
        return cmp.var(a, b);
      default:
        if ((c = cmp.val(a, b)) || (c = cmp.key(a, b, 0))) return c;
        return cmp.var(a, b);
    }
  };
  // "rev" walks swap the operands, so every component, tie-breakers included, is reversed.
  if (reverse)
    std::sort(rows.begin(), rows.end(), [&](row_ref a, row_ref b) { return compare(b, a) < 0; });
  else
    std::sort(rows.begin(), rows.end(), [&](row_ref a, row_ref b) { return compare(a, b) < 0; });
  return rows;
}

/// Calls visit(table, row) for every row of `tables` in the order of the walk.
template <class Key, class Visitor>
void walk(std::span<const table<Key>* const> tables, order o, const sort_options& options,
          Visitor&& visit) {
  for (const row_ref r : walk_rows(tables, o, options)) visit(*tables[r.table], r.row);
}

}  // namespace dtpp::agg
