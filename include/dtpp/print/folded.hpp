// Folded stacks (-x oformat=folded), the text FlameGraph, speedscope and inferno read: one line
// per stack, its frames root first joined by ';', then a space and its count.
//
//     libc.so.6`__libc_start_main;a.out`main;a.out`work 42
//
// Every key of a tuple becomes frames, in key order: a stack() or ustack() key its frames (root
// first, without their +0x offsets, so that samples at different places in one function merge),
// any other key one frame of its text (as bpftrace does with its keys, so that `@[execname,
// ustack()]` gives one tower per program). A tuple without keys is one frame, the aggregation's
// name; an empty stack is one frame, "[no frames]". The count is the value as dtrace(1) prints
// it; a histogram's is its number of samples.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/print/append.hpp"
#include "dtpp/print/frames.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::print {

/// Folded stacks and their counts, sorted by stack; a stack folded twice holds the sum.
using folded_stacks = std::map<std::string, std::int64_t>;

/// A frame as folded text: its +0x offset dropped; ';' (the separator) and line breaks become '_'.
inline std::string folded_frame(std::string_view frame) {
  if (const auto plus = frame.rfind("+0x"); plus != std::string_view::npos && plus > 0) frame = frame.substr(0, plus);
  std::string text(frame);
  for (char& c : text)
    if (c == ';' || c == '\n' || c == '\r') c = '_';
  return text;
}

/// The frame an empty stack gives (stack() of a sample taken in user mode, ustack() of a kernel
/// thread), so that its count is drawn and no line starts with nothing.
inline constexpr std::string_view no_frames = "[no frames]";

/// The frames a key record gives, root first.
inline std::vector<std::string> folded_frames(const agg::record& r) {
  if (r.type.is_stack()) {
    const auto frames = stack_frames(r.type.kind == agg::key_type::category::ustack, r.string, r.type.form);
    if (frames.empty()) return {std::string(no_frames)};
    return {frames.rbegin(), frames.rend()};
  }
  if (r.type.kind == agg::key_type::category::string) return {r.string.substr(0, r.string.find('\0'))};
  return {std::to_string(traced::integer(static_cast<std::int64_t>(r.integer), r.type.size, r.type.is_signed).as_signed())};
}

/// What a folded line counts: the value dtrace(1) prints, or a histogram's samples.
inline std::int64_t folded_count(const aggregated& a) {
  if (!agg::is_histogram(a.fn.kind)) return scalar_value(a).as_signed();
  std::vector<std::uint64_t> storage;
  const std::uint64_t* words = detail::words_or_zero(a, storage);
  return a.fn.visit([&](const auto& policy) -> std::int64_t {
    const auto value = policy.value(words);
    std::int64_t samples = 0;
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, dtpp::histogram>)
      for (std::size_t i = 0; i < value.size(); ++i) samples += value.count(i);
    return detail::normalized(samples, a.normal);
  });
}

/// Whether any key of the aggregation is a stack() or ustack().
inline bool has_stack_key(const agg::descriptor& d) {
  for (const auto& k : d.keys)
    if (k.is_stack()) return true;
  return false;
}

/// Adds every tuple of `t` to `stacks`.
inline void fold(folded_stacks& stacks, const agg::dynamic_table& t) {
  for (std::size_t row = 0; row < t.size(); ++row) {
    std::string line;
    for (const auto& r : t.key(row).records)
      for (const auto& frame : folded_frames(r)) {
        if (!line.empty()) line += ';';
        line += folded_frame(frame);
      }
    if (t.key(row).records.empty()) line = "@" + folded_frame(t.desc().name);
    stacks[line] += folded_count({t.desc().fn, t.words(row), t.normal()});
  }
}

/// The stacks as folded lines, sorted.
inline void print_folded(std::string& out, const folded_stacks& stacks) {
  for (const auto& [stack, count] : stacks) {
    out += stack;
    detail::append(out, " %lld\n", static_cast<long long>(count));
  }
}

}  // namespace dtpp::print
