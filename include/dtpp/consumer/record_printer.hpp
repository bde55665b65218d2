// dtrace(1)'s output one record at a time: the probe line that opens a firing, each record of it,
// the newline that closes it, and the aggregations printa() left unprinted. The consumer's session
// prints through it as its callbacks accept records.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/joined.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/options/set.hpp"
#include "dtpp/print/aggregation.hpp"
#include "dtpp/print/append.hpp"
#include "dtpp/print/format.hpp"
#include "dtpp/print/frames.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::consumer {

struct printer_options {
  bool quiet = false;    ///< -q / quiet: no probe lines
  bool testing = false;  ///< _DTRACE_TESTING: probe lines without the CPU and ID columns
  print::print_options print;
};

/// What the options say about printing; read again whenever one changes.
inline printer_options printing(const options::option_set& o, bool testing = false) {
  printer_options p;
  p.quiet = o.number("quiet").has_value();
  p.testing = testing;
  p.print.sort.sortkey = o.number("aggsortkey").has_value();
  p.print.sort.sortrev = o.number("aggsortrev").has_value();
  p.print.sort.keypos = o.size("aggsortkeypos", 0);
  p.print.sort.pos = o.size("aggsortpos", 0);
  p.print.percpu = o.on("aggpercpu");
  p.print.strsize = o.size("strsize", 256);
  return p;
}

/// One record's value, read from a clause's data where its description places it.
inline print::traced read_record(const ir::record& r, std::span<const std::byte> data) {
  if (r.offset >= data.size()) return print::traced::integer(0, 8, true);
  const auto* at = data.data() + r.offset;
  const std::size_t size = std::min<std::size_t>(r.size, data.size() - r.offset);
  if (r.t.is_string()) {
    const auto* text = reinterpret_cast<const char*>(at);
    return print::traced::string(std::string(text, ::strnlen(text, size)));
  }
  if (r.t.is_stack())
    return print::traced::stack(print::stack_frames(r.t.kind == ir::type::category::ustack,
                                                std::string_view(reinterpret_cast<const char*>(at), size)));
  std::uint64_t bits = 0;
  std::memcpy(&bits, at, std::min<std::size_t>(size, 8));  // little-endian: low bytes first
  return print::traced::integer(static_cast<std::int64_t>(bits), r.size, r.t.is_signed);
}

/// Prints an engine's firings record by record, as dtrace(1) prints them whole:
///
///     record_printer p(engine, options);
///     p.open(firing, text);                          // "  0      1    :BEGIN " unless quiet
///     for (const auto& s : clause.statements) p.print(s, firing, text);
///     p.close(text);                                 // "\n" unless quiet
class record_printer {
 public:
  record_printer(engine::source& engine, printer_options options)
      : engine_(engine),
        options_(std::move(options)),
        printed_(engine.program().aggregations.size(), false) {}

  /// Options change while a program runs (setopt of quiet, aggsortkey ...).
  void set_options(printer_options options) { options_ = std::move(options); }
  const printer_options& options() const { return options_; }

  /// The probe line that opens a firing, after the column heading the first time; nothing when
  /// quiet.
  void open(const engine::firing& f, std::string& out) {
    if (options_.quiet) return;
    if (!heading_) {
      if (options_.testing)
        print::detail::append(out, "%32s\n", "FUNCTION:NAME");
      else
        print::detail::append(out, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
      heading_ = true;
    }
    const auto& probe = engine_.probes()[f.probe - 1];
    const auto name = probe.function + ":" + probe.name;
    if (options_.testing)
      print::detail::append(out, "%32s ", name.c_str());
    else
      print::detail::append(out, "%3u %6u %32s ", f.cpu, f.probe, name.c_str());
  }

  /// The newline that closes a firing; nothing when quiet.
  void close(std::string& out) const {
    if (!options_.quiet) out += '\n';
  }

  /// One record of a firing: trace(), stack(), ustack(), printf() and printa() print; the other
  /// statements print nothing (the session carries out the library actions).
  void print(const ir::statement& s, const engine::firing& f, std::string& out) {
    const std::span<const std::byte> data(f.data);
    switch (s.kind) {
      case ir::action::trace:
      case ir::action::stack:
      case ir::action::ustack:
        print::print_trace(out, read_record(s.records[0], data), options_.quiet);
        return;
      case ir::action::printf:
      case ir::action::system: {  // the command's text, for the session to run
        std::vector<print::traced> args;
        for (const auto& r : s.records) args.push_back(read_record(r, data));
        print::print(out, s.parsed_format, args);
        return;
      }
      case ir::action::printa:
        printa(s, out);
        return;
      default:
        return;
    }
  }

  /// dtrace_aggregate_print(): every aggregation printa() has not printed, in the walk's order,
  /// without the newline dtrace(1) prints before them at the end of a run.
  void unprinted_aggregations(std::string& out, order o = order::sorted) const {
    std::vector<agg::dynamic_table> snapshots;
    for (std::uint32_t id = 1; id <= printed_.size(); ++id)
      if (!printed_[id - 1]) snapshots.push_back(engine_.aggregation(id).snapshot());
    print::print_aggregations<agg::dynamic_key>(out, pointers(snapshots), o, options_.print);
  }

 private:
  static std::vector<const agg::dynamic_table*> pointers(const std::vector<agg::dynamic_table>& v) {
    std::vector<const agg::dynamic_table*> p;
    for (const auto& t : v) p.push_back(&t);
    return p;
  }

  static print::traced traced_key(const agg::record& r) {
    if (r.type.kind == agg::key_type::category::string) return print::traced::string(r.string);
    if (r.type.is_stack()) return print::traced::stack(print::stack_frames(r.type.kind == agg::key_type::category::ustack, r.string));
    return print::traced::integer(static_cast<std::int64_t>(r.integer), r.type.size,
                                r.type.is_signed);
  }

  // printa() marks the aggregations it printed tuples of, so that the end of a run skips them.
  void printa(const ir::statement& s, std::string& out) {
    std::vector<agg::dynamic_table> snapshots;
    for (const auto id : s.aggregations) snapshots.push_back(engine_.aggregation(id).snapshot());
    const auto tables = pointers(snapshots);
    for (std::size_t i = 0; i < tables.size(); ++i)
      if (!tables[i]->empty()) printed_[s.aggregations[i] - 1] = true;
    if (!s.has_format) {
      out += '\n';
      if (tables.size() == 1)
        print::print_aggregations<agg::dynamic_key>(out, tables, order::sorted, options_.print);
      else
        print::print_joined<agg::dynamic_key>(out, tables, options_.print);
      return;
    }
    const auto& format = s.parsed_format;
    std::vector<std::vector<std::uint64_t>> zero;
    for (const auto* t : tables) zero.push_back(agg::zero_words(t->desc()));
    for (const auto& b : agg::joined_bundles<agg::dynamic_key>(tables, options_.print.sort)) {
      std::vector<print::traced> keys;
      for (const auto& r : tables[b.key.table]->key(b.key.row).records)
        keys.push_back(traced_key(r));
      std::vector<print::aggregated> values;
      for (std::size_t p = 0; p < tables.size(); ++p) {
        const auto& member = b.members[p];
        const auto words =
            member ? tables[p]->words(*member) : std::span<const std::uint64_t>(zero[p]);
        values.push_back({tables[p]->desc().fn, words, tables[p]->normal()});
      }
      print::print_printa(out, format, keys, values);
    }
  }

  engine::source& engine_;
  printer_options options_;
  std::vector<bool> printed_;
  bool heading_ = false;
};

}  // namespace dtpp::consumer
