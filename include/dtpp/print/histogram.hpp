// quantize/lquantize/llquantize as dtrace(1) draws them: header, rows of label, bar and count.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "dtpp/agg/values.hpp"
#include "dtpp/print/append.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::print {

namespace detail {

// One row's bar and count. Bars are 40 wide, drawn right of '|' when no count is negative, left
// of it when none is positive, and as two half bars around a centre line when signs are mixed.
inline void print_bar(std::string& out, std::int64_t count, std::uint64_t normal,
                      long double total, bool positives, bool negatives) {
  const auto depth_of = [&](int len) {
    if (total == 0) return 0;
    return static_cast<int>(std::fabs(static_cast<long double>(count)) * len / total + 0.5L);
  };
  const std::string ats(40, '@'), spaces(40, ' ');
  // DTrace divides unsigned here; dtpp divides signed so negative counts stay negative.
  const long long shown = count / static_cast<std::int64_t>(normal);
  if (!negatives) {
    const int depth = positives ? depth_of(40) : 0;
    append(out, "|%s%s %-9lld\n", ats.substr(0, depth).c_str(), spaces.substr(depth).c_str(),
           shown);
  } else if (!positives) {
    const int depth = depth_of(40);
    append(out, "%s%s| %-9lld\n", spaces.substr(depth).c_str(), ats.substr(0, depth).c_str(),
           shown);
  } else {
    const int depth = depth_of(20);
    if (count <= 0)
      append(out, "%s%s|%20s %-9lld\n", spaces.substr(depth + 20).c_str(),
             ats.substr(0, depth).c_str(), "", shown);
    else
      append(out, "%20s|%s%s %-9lld\n", "", ats.substr(0, depth).c_str(),
             spaces.substr(depth + 20).c_str(), shown);
  }
}

// The label of bucket i as its row shows it.
inline void print_label(std::string& out, const histogram& h, std::size_t i) {
  const bool last = i + 1 == h.size();
  switch (h.function()) {
    case agg::kind::quantize:
      append(out, "%16lld ", static_cast<long long>(agg::quantize::label(i)));
      return;
    case agg::kind::lquantize: {
      const auto p = agg::lquantize_params::decode(h.param());
      char text[32];
      if (i == 0) std::snprintf(text, sizeof text, "< %d", p.base);
      else if (last) std::snprintf(text, sizeof text, ">= %lld", static_cast<long long>(p.overflow_start()));
      else std::snprintf(text, sizeof text, "%lld", static_cast<long long>(p.level_value(i)));
      append(out, "%16s ", text);
      return;
    }
    default: {
      const auto p = agg::llquantize_params::decode(h.param());
      char text[32];
      if (i == 0) std::snprintf(text, sizeof text, "< %llu", static_cast<unsigned long long>(p.power(p.low)));
      else if (last) std::snprintf(text, sizeof text, ">= %llu", static_cast<unsigned long long>(p.power(p.high + 1u)));
      else std::snprintf(text, sizeof text, "%lld", static_cast<long long>(h[i].lower));
      append(out, "%16s ", text);
      return;
    }
  }
}

}  // namespace detail

/// A histogram as dtrace(1) prints it (the leading newline and header included, no trailing
/// blank line): the rows from one bucket before the first non-zero bucket to one after the last,
/// or the rows around zero (quantize) / the first rows (lquantize, llquantize) when all are zero.
inline void print_histogram(std::string& out, const histogram& h, std::uint64_t normal = 1) {
  const std::size_t n = h.size();
  std::size_t first = 0, last = n - 1;
  while (first < n && h.count(first) == 0) ++first;
  if (first == n) {
    switch (h.function()) {
      case agg::kind::quantize: first = agg::quantize::zero_bucket - 1; last = first + 2; break;
      case agg::kind::lquantize: first = 0; last = 2; break;
      default: first = 0; last = 1; break;
    }
    if (last >= n) last = n - 1;
  } else {
    if (first > 0) --first;
    while (last > 0 && h.count(last) == 0) --last;
    if (last < n - 1) ++last;
  }
  long double total = 0;
  bool positives = false, negatives = false;
  for (std::size_t i = first; i <= last; ++i) {
    positives = positives || h.count(i) > 0;
    negatives = negatives || h.count(i) < 0;
    total += std::fabs(static_cast<long double>(h.count(i)));
  }
  detail::append(out, "\n%16s %41s %-9s\n", "value", "------------- Distribution -------------",
                 "count");
  for (std::size_t i = first; i <= last; ++i) {
    detail::print_label(out, h, i);
    detail::print_bar(out, h.count(i), normal, total, positives, negatives);
  }
}

/// A quantize/lquantize/llquantize value as above (zero-filled when `a` holds too few words); a
/// value of another function prints nothing.
inline void print_histogram(std::string& out, const aggregated& a) {
  std::vector<std::uint64_t> storage;
  const std::uint64_t* words = detail::words_or_zero(a, storage);
  a.fn.visit([&](const auto& policy) {
    const auto value = policy.value(words);
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, histogram>)
      print_histogram(out, value, a.normal == 0 ? 1 : a.normal);
  });
}

}  // namespace dtpp::print
