// dtrace(1)'s default output of aggregations: one line per key, histograms drawn, in the default
// walk order (or any other), with aggpercpu's per-CPU lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/joined.hpp"
#include "dtpp/agg/table.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/print/format.hpp"
#include "dtpp/print/frames.hpp"
#include "dtpp/print/histogram.hpp"
#include "dtpp/print/record.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::print {

/// How the printers lay out what they print.
struct print_options {
  sort_options sort;
  bool percpu = false;            ///< aggpercpu: a line per shard after each value
  std::size_t strsize = 257;      ///< bytes of a string record, -x strsize and a NUL (for raw dumps)
  bool rawbytes = false;          ///< rawbytes: string keys (and trace()'s records) dumped as bytes
};

/// One aggregated value: " %16lld" for count/sum/min/max and avg (sum / normal / count, signed),
/// " %16llu" for stddev, the drawn histogram for the quantize family.
inline void print_value(std::string& out, const agg::function& fn,
                        std::span<const std::uint64_t> words, std::uint64_t normal = 1) {
  const aggregated a{fn, words, normal};
  if (agg::is_histogram(fn.kind)) return print_histogram(out, a);
  const traced value = scalar_value(a);
  if (fn.kind == agg::kind::stddev)
    detail::append(out, " %16llu", static_cast<unsigned long long>(value.as_unsigned()));
  else
    detail::append(out, " %16lld", static_cast<long long>(value.as_signed()));
}

/// The key records of a key as DTrace prints them.
template <class Key>
void print_key(std::string& out, const Key& key, const print_options& options = {}) {
  if constexpr (std::is_same_v<Key, agg::dynamic_key>) {
    for (const auto& r : key.records) {
      if (r.type.kind == agg::key_type::category::string)
        print_string_record(out, r.string, r.type.size, string_key_width, options.rawbytes);
      else if (r.type.form != agg::symbol_form::none)
        detail::print_symbol(out, symbol_name(r.type.form, r.type.kind == agg::key_type::category::ustack, r.string));
      else if (r.type.is_stack())
        detail::print_stack(out, stack_frames(r.type.kind == agg::key_type::category::ustack, r.string), 14, "%s");
      else
        print_integer_record(out, r.type.size, r.integer);
    }
  } else {
    agg::detail::for_each_field(key, [&](const auto& field) {
      using field_type = std::decay_t<decltype(field)>;
      if constexpr (std::is_integral_v<field_type>)
        print_integer_record(out, field);
      else
        print_string_record(out, field, options.strsize, string_key_width, options.rawbytes);
    });
  }
}

/// One tuple as dtrace(1) prints it: keys, value, per-shard lines with aggpercpu, newline.
template <class Key>
void print_row(std::string& out, const agg::table<Key>& t, std::size_t row,
               const print_options& options = {}) {
  print_key(out, t.key(row), options);
  print_value(out, t.desc().fn, t.words(row), t.normal());
  if (options.percpu) {
    for (std::size_t s = 0; s < t.shards(); ++s) {
      detail::append(out, "\n    [CPU %zu]", s);
      print_value(out, t.desc().fn, t.shard_words(row, s), t.normal());
    }
  }
  out += '\n';
}

/// Every row of the tables in the walk's order, as dtrace(1) prints aggregations at exit
/// (without the single newline dtrace(1) prints before them).
template <class Key>
void print_aggregations(std::string& out, std::span<const agg::table<Key>* const> tables,
                        order o = order::sorted, const print_options& options = {}) {
  for (const agg::row_ref r : agg::walk_rows(tables, o, options.sort))
    print_row(out, *tables[r.table], r.row, options);
}

/// One table, printed as above.
template <class Key>
std::string format_aggregation(const agg::table<Key>& t, order o = order::sorted,
                               const print_options& options = {}) {
  std::string out;
  const agg::table<Key>* tables[] = {&t};
  print_aggregations<Key>(out, tables, o, options);
  return out;
}

/// printa() of several aggregations without a format: per bundle, the key records, then each
/// aggregation's value in printa's order (missing ones zero-filled), then a newline.
template <class Key>
void print_joined(std::string& out, std::span<const agg::table<Key>* const> tables,
                  const print_options& options = {}) {
  std::vector<std::vector<std::uint64_t>> zero;
  for (const auto* t : tables) zero.push_back(agg::zero_words(t->desc()));
  for (const auto& b : agg::joined_bundles(tables, options.sort)) {
    print_key(out, tables[b.key.table]->key(b.key.row), options);
    for (std::size_t p = 0; p < tables.size(); ++p) {
      const auto& t = *tables[p];
      const auto& member = b.members[p];
      print_value(out, t.desc().fn, member ? t.words(*member) : std::span<const std::uint64_t>(zero[p]),
                  t.normal());
    }
    out += '\n';
  }
}

}  // namespace dtpp::print
