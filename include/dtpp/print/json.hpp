// dtpp's JSON output (-x oformat=json): records and aggregations as JSON documents, with their
// types kept (a count an integer, an avg a number, a stack a list of frames, a histogram its
// buckets with their bounds). docs/command.md describes every field; docs/dtpp-output.schema.json
// is the schema the tests check the output against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/print/frames.hpp"
#include "dtpp/print/json_fwd.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::print {

/// A traced value: an integer as its D type reads it (signed or not, by its size), a string up to
/// its first NUL, a stack as its frames (the innermost first, as dtrace(1) prints them).
inline json json_value(const traced& v) {
  switch (v.type) {
    case traced::kind::string:
    case traced::kind::symbol:
      return v.text.substr(0, v.text.find('\0'));
    case traced::kind::stack:
      return v.frames;
    case traced::kind::integer:
      break;
  }
  if (v.is_signed) return v.as_signed();
  return v.as_unsigned();
}

/// One key record of a run-time aggregation, as json_value() gives a traced value.
inline json json_key(const agg::record& r) {
  if (r.type.kind == agg::key_type::category::string) return r.string.substr(0, r.string.find('\0'));
  if (r.type.form != agg::symbol_form::none)
    return symbol_name(r.type.form, r.type.kind == agg::key_type::category::ustack, r.string);
  if (r.type.is_stack())
    return stack_frames(r.type.kind == agg::key_type::category::ustack, r.string);
  if (!r.type.is_signed) {
    const auto bits = r.type.size >= 8 ? r.integer : r.integer & ((std::uint64_t{1} << (8 * r.type.size)) - 1);
    return bits;
  }
  return traced::integer(static_cast<std::int64_t>(r.integer), r.type.size, true).as_signed();
}

/// An aggregated value: count an unsigned integer; sum, min and max signed integers; avg and
/// stddev numbers (not truncated as dtrace(1) prints them); quantize, lquantize and llquantize
/// {"buckets": [{"min", "max", "count"}]}, the buckets holding a count, lowest first, each
/// counting the values from min to max (INT64_MIN and INT64_MAX bound the outer ones).
/// normalize()'s divisor applies to all.
inline json json_aggregated(const aggregated& a) {
  const std::uint64_t normal = a.normal == 0 ? 1 : a.normal;
  std::vector<std::uint64_t> storage;
  const std::uint64_t* words = detail::words_or_zero(a, storage);
  return a.fn.visit([&](const auto& policy) -> json {
    const auto value = policy.value(words);
    using value_type = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<value_type, dtpp::histogram>) {
      json buckets = json::array();
      for (const auto b : value)
        if (b.count != 0)
          buckets.push_back({{"min", b.lower}, {"max", b.upper},
                             {"count", detail::normalized(b.count, normal)}});
      return {{"buckets", std::move(buckets)}};
    } else if constexpr (std::is_same_v<value_type, dtpp::avg>) {
      return value.mean() / static_cast<double>(normal);
    } else if constexpr (std::is_same_v<value_type, dtpp::stddev>) {
      return value.stddev_value() / static_cast<double>(normal);
    } else if constexpr (std::is_same_v<value_type, std::uint64_t>) {  // count
      return value / normal;
    } else {
      return detail::normalized(value, normal);
    }
  });
}

/// One row of an aggregation: {"keys": [...], "value": ...}.
inline json json_row(const agg::dynamic_table& t, std::size_t row) {
  json keys = json::array();
  for (const auto& r : t.key(row).records) keys.push_back(json_key(r));
  return {{"keys", std::move(keys)},
          {"value", json_aggregated({t.desc().fn, t.words(row), t.normal()})}};
}

/// A whole aggregation: {"aggregation": name, "function": ..., "data": [rows]}, its rows in the
/// walk's order. An empty aggregation has no rows.
inline json json_aggregation(const agg::dynamic_table& t, order o = order::sorted,
                                       const sort_options& sort = {}) {
  json data = json::array();
  const agg::dynamic_table* tables[] = {&t};
  for (const agg::row_ref r : agg::walk_rows<agg::dynamic_key>(tables, o, sort)) data.push_back(json_row(t, r.row));
  return {{"aggregation", t.desc().name},
          {"function", std::string(agg::name(t.desc().fn.kind))},
          {"data", std::move(data)}};
}

/// The start of a firing's document: where it fired, and an empty list for its records.
inline json json_firing(const engine::firing& f, const engine::probe_info& probe) {
  return {{"cpu", f.cpu},
          {"id", f.probe},
          {"enabled probe id", f.epid},
          {"probe",
           {{"provider", probe.provider}, {"module", probe.module}, {"function", probe.function}, {"name", probe.name}}},
          {"output", json::array()}};
}

/// A document as compact JSON text. Bytes that are not UTF-8 become U+FFFD: JSON text is
/// Unicode, and a D string is bytes.
inline std::string json_text(const json& document) {
  return document.dump(-1, ' ', false, json::error_handler_t::replace);
}

/// A document as one line of NDJSON.
inline void append_json_line(std::string& out, const json& document) {
  out += json_text(document);
  out += '\n';
}

}  // namespace dtpp::print
