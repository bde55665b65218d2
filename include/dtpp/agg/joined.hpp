// Joined walks (printa with several aggregations, dtrace_aggregate_walk_joined): bundles of the
// values that several aggregations hold for one key, zero-filled and ordered as DTrace orders them.
#pragma once

#include <algorithm>
#include <boost/hana/tuple.hpp>
#include <boost/hana/unpack.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "dtpp/agg/snapshot.hpp"
#include "dtpp/agg/table.hpp"
#include "dtpp/agg/walk.hpp"

namespace dtpp::agg {

/// One key and, for each position of the joined list, the row holding its value (none: the
/// aggregation has no value for this key and the walk zero-fills it).
struct bundle {
  row_ref key;  ///< the representative: the tuple of the lowest variable id present
  std::vector<std::optional<std::uint32_t>> members;
};

/// The words DTrace hands out for a missing member: all zero, parameter word kept.
inline std::vector<std::uint64_t> zero_words(const descriptor& desc) {
  std::vector<std::uint64_t> words(desc.fn.words(), 0);
  if (desc.fn.kind == kind::lquantize || desc.fn.kind == kind::llquantize) words[0] = desc.fn.param;
  return words;
}

/// The bundles of a joined walk over `tables` (in printa's argument order; an aggregation may
/// appear more than once), ordered by the values from position options.pos on, then by key
/// (aggsortkey: key first; aggsortrev: reversed).
template <class Key>
std::vector<bundle> joined_bundles(std::span<const table<Key>* const> tables,
                                   const sort_options& options = {}) {
  // Each distinct table takes part once; positions map onto them.
  std::vector<const table<Key>*> distinct;
  std::vector<std::size_t> position_of;  // position -> distinct index
  for (const auto* t : tables) {
    const auto it = std::find(distinct.begin(), distinct.end(), t);
    position_of.push_back(static_cast<std::size_t>(it - distinct.begin()));
    if (it == distinct.end()) distinct.push_back(t);
  }
  const auto rows = walk_rows<Key>(distinct, order::keyvarsorted);

  std::vector<bundle> bundles;
  for (std::size_t i = 0; i < rows.size();) {
    std::vector<std::optional<std::uint32_t>> by_table(distinct.size());
    std::size_t j = i;
    const Key& key = distinct[rows[i].table]->key(rows[i].row);
    for (; j < rows.size() && key_traits<Key>::compare(
                                  key, distinct[rows[j].table]->key(rows[j].row)) == 0;
         ++j)
      by_table[rows[j].table] = rows[j].row;
    bundle b{rows[i], {}};
    for (const auto d : position_of) b.members.push_back(by_table[d]);
    b.key.table = static_cast<std::uint32_t>(
        std::find(position_of.begin(), position_of.end(), rows[i].table) - position_of.begin());
    bundles.push_back(std::move(b));
    i = j;
  }

  // Each position's value order, missing members taking the zero-filled value's place.
  const std::size_t n = tables.size();
  std::vector<value_order> zero(n);
  for (std::size_t p = 0; p < n; ++p) {
    const auto words = zero_words(tables[p]->desc());
    zero[p] = tables[p]->desc().fn.visit([&](const auto& fn) { return fn.order(words.data()); });
  }
  std::vector<std::vector<value_order>> values(bundles.size(), std::vector<value_order>(n));
  for (std::size_t b = 0; b < bundles.size(); ++b)
    for (std::size_t p = 0; p < n; ++p) {
      const auto& member = bundles[b].members[p];
      values[b][p] = member ? tables[p]->desc().fn.visit([&](const auto& fn) {
        return fn.order(tables[p]->words(*member).data());
      })
                            : zero[p];
    }

  const std::size_t first = options.pos < n ? options.pos : 0;
  const auto compare_values = [&](std::size_t a, std::size_t b) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = (first + i) % n;
      if (values[a][p] < values[b][p]) return -1;
      if (values[b][p] < values[a][p]) return 1;
    }
    return 0;
  };
  const auto compare_keys = [&](std::size_t a, std::size_t b) {
    const auto& ka = bundles[a].key;
    const auto& kb = bundles[b].key;
    return key_traits<Key>::compare(tables[ka.table]->key(ka.row), tables[kb.table]->key(kb.row),
                                    options.keypos);
  };
  const auto compare = [&](std::size_t a, std::size_t b) {
    if (options.sortkey) {
      if (int c = compare_keys(a, b)) return c;
      return compare_values(a, b);
    }
    if (int c = compare_values(a, b)) return c;
    return compare_keys(a, b);
  };
  std::vector<std::size_t> order_of(bundles.size());
  for (std::size_t i = 0; i < order_of.size(); ++i) order_of[i] = i;
  std::stable_sort(order_of.begin(), order_of.end(), [&](std::size_t a, std::size_t b) {
    return options.sortrev ? compare(b, a) < 0 : compare(a, b) < 0;
  });
  std::vector<bundle> sorted;
  sorted.reserve(bundles.size());
  for (const auto i : order_of) sorted.push_back(std::move(bundles[i]));
  return sorted;
}

}  // namespace dtpp::agg

namespace dtpp {

/// A joined walk over typed snapshots sharing one key type: visitor(key fields..., value of the
/// first, value of the second, ...), e.g.
/// `dtpp::walk_joined([](std::string_view call, std::int64_t min, std::int64_t max, dtpp::avg a)
/// {...}, {}, mins, maxs, avgs);` Missing values are zero-filled as DTrace does.
template <class Visitor, class Fn, class Key, class... Fns, class... Keys>
void walk_joined(Visitor&& visitor, const sort_options& options,
                 const agg::snapshot<Fn, Key>& first, const agg::snapshot<Fns, Keys>&... rest) {
  static_assert((std::is_same_v<Key, Keys> && ...),
                "dtpp: a joined walk needs aggregations with the same key types "
                "(D_PRINTA_AGGPROTO)");
  const auto snaps = boost::hana::make_tuple(&first, &rest...);
  const agg::table<Key>* tables[] = {&first.data(), &rest.data()...};
  std::vector<std::vector<std::uint64_t>> zero;
  for (const auto* t : tables) zero.push_back(agg::zero_words(t->desc()));

  for (const auto& b : agg::joined_bundles<Key>(tables, options)) {
    const Key& key = tables[b.key.table]->key(b.key.row);
    std::size_t position = 0;
    const auto value_of = [&](const auto* snap) {
      const auto p = position++;
      return b.members[p] ? snap->value(*b.members[p]) : snap->function().value(zero[p].data());
    };
    // Braced initialisation evaluates left to right, so positions line up with the snapshots.
    boost::hana::unpack(snaps, [&](const auto*... s) {
      const auto values = boost::hana::tuple<typename std::decay_t<decltype(*s)>::value_type...>{
          value_of(s)...};
      boost::hana::unpack(values, [&](const auto&... v) {
        agg::detail::invoke_with_key(visitor, key, v...);
      });
    });
  }
}

}  // namespace dtpp
