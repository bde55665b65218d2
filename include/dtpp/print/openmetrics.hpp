// Aggregations in the OpenMetrics text format (what Prometheus scrapes): one metric family per
// aggregation, its keys as labels, histograms with cumulative `le` buckets from their own bounds.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/values.hpp"
#include "dtpp/print/frames.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::print {

/// The two texts scrapers read: OpenMetrics 1.0 (what Prometheus asks for), and Prometheus's
/// older text format 0.0.4 (what curl, promtool and older scrapers get). They differ in how a
/// counter's family is named and in OpenMetrics' closing "# EOF".
enum class metrics_format : std::uint8_t { openmetrics, text };

/// The HTTP content type of a format.
constexpr std::string_view content_type(metrics_format f) {
  return f == metrics_format::openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                          : "text/plain; version=0.0.4; charset=utf-8";
}

/// An OpenMetrics family type: counters for values that only grow, gauges for the others, and
/// histograms (whose buckets clear() resets to zero, which rate() takes for a counter reset).
enum class metric_type : std::uint8_t { counter, gauge, histogram };

constexpr std::string_view name(metric_type t) {
  constexpr std::string_view names[] = {"counter", "gauge", "histogram"};
  return names[static_cast<int>(t)];
}

/// How one aggregation shows as a metric family.
struct metric_family {
  std::string name;                 ///< "dtpp_bytes"
  metric_type type = metric_type::gauge;
  std::vector<std::string> labels;  ///< one label name per key
  std::string help;                 ///< "@bytes, sum()"
};

namespace detail {

// Go's %g rendering of a float64 with ".0" added to an integral one: the canonical form
// OpenMetrics asks of `le` values ("1.0", "1024.0", "1.048576e+06", "-4.611686018427388e+18").
inline void append_canonical(std::string& out, double value) {
  char text[64];
  auto r = std::to_chars(text, text + sizeof text, value, std::chars_format::scientific);
  const std::string_view scientific(text, static_cast<std::size_t>(r.ptr - text));
  const auto e = scientific.find('e');
  int exponent = 0;
  std::from_chars(scientific.data() + e + (scientific[e + 1] == '+' ? 2 : 1),
                  scientific.data() + scientific.size(), exponent);
  if (exponent < -4 || exponent >= 6) {
    out += scientific;
    return;
  }
  r = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed);
  const std::string_view fixed(text, static_cast<std::size_t>(r.ptr - text));
  out += fixed;
  if (fixed.find('.') == std::string_view::npos) out += ".0";
}

template <class Integer>
void append_integer(std::string& out, Integer value) {
  char text[24];
  const auto r = std::to_chars(text, text + sizeof text, value);
  out.append(text, static_cast<std::size_t>(r.ptr - text));
}

// The length of the valid UTF-8 sequence at text[i], or 0 when none starts there (overlong
// forms, surrogates and code points past U+10FFFF are not valid).
inline std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xbf;  // the second byte's range
  if (lead >= 0xc2 && lead <= 0xdf) n = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    n = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    n = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;
  }
  if (i + n > text.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  return n;
}

}  // namespace detail

/// A label value as OpenMetrics writes one between quotes: backslash, double quote and newline
/// escaped; a byte that is not part of valid UTF-8 (D strings are bytes) becomes U+FFFD.
inline void append_label_value(std::string& out, std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const char c = bytes[i];
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else if (const auto n = detail::utf8_sequence(bytes, i); n > 0) {
      out.append(bytes.substr(i, n));
      i += n;
      continue;
    } else out += "\xef\xbf\xbd";
    ++i;
  }
}

/// One key record as a label value: an integer in decimal (signed by its type), a string as is,
/// a stack as its frames from the outermost caller in, joined by ';' (as folded stacks are).
inline void append_key_value(std::string& out, const agg::record& r) {
  using category = agg::key_type::category;
  if (r.type.kind == category::integer) {
    const auto value = traced::integer(static_cast<std::int64_t>(r.integer), r.type.size, r.type.is_signed);
    if (r.type.is_signed) detail::append_integer(out, value.as_signed());
    else detail::append_integer(out, value.as_unsigned());
    return;
  }
  if (r.type.kind == category::string) return append_label_value(out, r.string);
  const auto frames = stack_frames(r.type.kind == category::ustack, r.string, r.type.form);
  std::string joined;
  for (auto f = frames.rbegin(); f != frames.rend(); ++f) {
    if (!joined.empty()) joined += ';';
    joined += *f;
  }
  append_label_value(out, joined);
}

/// One aggregation as a metric family, its rows in the table's order: TYPE and HELP lines, then per key
/// `name_total` (counter), `name` (gauge), or the `le` buckets and `name_count` (histogram).
/// Counts, sums, minima and maxima are integers (divided by normalize()'s factor), averages and
/// standard deviations numbers. Histograms have no `_sum`: DTrace keeps none, and OpenMetrics
/// forbids one beside negative buckets.
inline void print_metric_family(std::string& out, const metric_family& family, const agg::dynamic_table& table,
                                metrics_format format = metrics_format::openmetrics) {
  // OpenMetrics names a counter's family without the _total its samples have; 0.0.4 with it.
  const bool total_in_name = family.type == metric_type::counter && format == metrics_format::text;
  for (const std::string_view line : {"# TYPE ", "# HELP "}) {
    out += line;
    out += family.name;
    if (total_in_name) out += "_total";
    out += ' ';
    out += line == "# TYPE " ? name(family.type) : std::string_view(family.help);  // help: no escapes needed
    out += '\n';
  }

  const auto& fn = table.desc().fn;
  const std::uint64_t normal = table.normal() == 0 ? 1 : table.normal();
  const bool histogram = agg::is_histogram(fn.kind);
  // Every row of a histogram has the same bounds: their `le` texts are made once.
  std::vector<std::string> bounds;
  if (histogram && table.size() > 0)
    fn.visit([&](const auto& policy) {
      if constexpr (std::is_same_v<std::decay_t<decltype(policy.value(nullptr))>, dtpp::histogram>) {
        const std::vector<std::uint64_t> zero(fn.words(), 0);
        const auto h = policy.value(zero.data());
        for (std::size_t i = 0; i + 1 < h.size(); ++i) {
          std::string le = "le=\"";
          detail::append_canonical(le, static_cast<double>(h[i].upper));
          bounds.push_back(le + "\"}");
        }
        bounds.emplace_back("le=\"+Inf\"}");
      }
    });

  // Rows in the table's own order: scrapers do not care, and sorting 100,000 keys would cost
  // more than rendering them.
  out.reserve(out.size() + table.size() * (family.name.size() + 32));
  std::string labels;
  for (std::size_t row = 0; row < table.size(); ++row) {
    const auto& key = table.key(row);
    labels.clear();
    for (std::size_t k = 0; k < key.records.size(); ++k) {
      labels += k == 0 ? '{' : ',';
      labels += family.labels[k];
      labels += "=\"";
      append_key_value(labels, key.records[k]);
      labels += '"';
    }
    const auto words = table.words(row);
    if (histogram) {
      const auto h = fn.visit([&](const auto& policy) {
        if constexpr (std::is_same_v<std::decay_t<decltype(policy.value(nullptr))>, dtpp::histogram>)
          return policy.value(words.data());
        else
          return dtpp::histogram(fn.kind, 0, {});
      });
      const std::string bucket = family.name + "_bucket" + (labels.empty() ? "{" : labels + ",");
      std::int64_t cumulative = 0;
      for (std::size_t i = 0; i < h.size(); ++i) {
        cumulative += detail::normalized(h.count(i), normal);
        out += bucket;
        out += bounds[i];
        out += ' ';
        detail::append_integer(out, cumulative);
        out += '\n';
      }
      out += family.name;
      out += "_count";
      if (!labels.empty()) out += labels + "}";
      out += ' ';
      detail::append_integer(out, cumulative);
      out += '\n';
      continue;
    }
    out += family.name;
    if (family.type == metric_type::counter) out += "_total";
    if (!labels.empty()) out += labels + "}";
    out += ' ';
    fn.visit([&](const auto& policy) {
      const auto value = policy.value(words.data());
      using value_type = std::decay_t<decltype(value)>;
      if constexpr (std::is_same_v<value_type, dtpp::avg>)
        detail::append_canonical(out, value.mean() / static_cast<double>(normal));
      else if constexpr (std::is_same_v<value_type, dtpp::stddev>)
        detail::append_canonical(out, value.stddev_value() / static_cast<double>(normal));
      else if constexpr (std::is_same_v<value_type, std::uint64_t>)  // count
        detail::append_integer(out, value / normal);
      else if constexpr (!std::is_same_v<value_type, dtpp::histogram>)
        detail::append_integer(out, detail::normalized(value, normal));
    });
    out += '\n';
  }
}

/// The end of an exposition: OpenMetrics' "# EOF" line.
inline void print_metrics_end(std::string& out, metrics_format format = metrics_format::openmetrics) {
  if (format == metrics_format::openmetrics) out += "# EOF\n";
}

}  // namespace dtpp::print
