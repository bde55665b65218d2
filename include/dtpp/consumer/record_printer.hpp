// dtrace(1)'s output one record at a time: the probe line that opens a firing, each record of it,
// the library actions it carries out, the newline that closes it, and the aggregations printa()
// left unprinted. consumer::handle prints through it as its callbacks accept records.
#pragma once

#include <strings.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/joined.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/consumer/source.hpp"
#include "dtpp/ir/program.hpp"
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

/// Sets one option that changes what is printed, from a pragma, -x or setopt(); others are left
/// alone.
inline void set_printer_option(printer_options& options, const std::string& name, const std::string& value) {
  const auto number = [&] { return static_cast<std::size_t>(std::strtoull(value.c_str(), nullptr, 0)); };
  // A toggle is on unless its value is one of libdtrace's negative words.
  const bool on = [&] {
    for (const char* no : {"no", "disable", "disabled", "false", "off", "unset"})
      if (::strcasecmp(value.c_str(), no) == 0) return false;
    return true;
  }();
  if (name == "quiet") options.quiet = on;
  if (name == "aggsortkey") options.print.sort.sortkey = on;
  if (name == "aggsortrev") options.print.sort.sortrev = on;
  if (name == "aggsortkeypos") options.print.sort.keypos = number();
  if (name == "aggsortpos") options.print.sort.pos = number();
  if (name == "aggpercpu") options.print.percpu = on;
  if (name == "strsize") options.print.strsize = number();
}

/// The options a program's pragmas (and -x) set that change what is printed.
inline printer_options options_of(const ir::program& program, printer_options base = {}) {
  for (const auto& o : program.options) set_printer_option(base, o.name, o.value);
  return base;
}

/// The actions libdtrace carries out itself without offering their records to a consumer's
/// record callback (its DTRACEACT_LIBACT records): clear, trunc, normalize, denormalize, setopt.
inline bool is_library_action(ir::action a) {
  switch (a) {
    case ir::action::clear:
    case ir::action::trunc:
    case ir::action::normalize:
    case ir::action::denormalize:
    case ir::action::setopt:
      return true;
    default:
      return false;
  }
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
  record_printer(source& engine, printer_options options)
      : engine_(engine),
        options_(std::move(options)),
        printed_(engine.program().aggregations.size(), false) {}

  /// Options change while a program runs (setopt of quiet, aggsortkey ...).
  void set_options(printer_options options) { options_ = std::move(options); }
  const printer_options& options() const { return options_; }

  /// The probe line that opens a firing, after the column heading the first time; nothing when
  /// quiet.
  void open(const firing& f, std::string& out) {
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

  /// One statement of a firing: prints trace(), printf() and printa() records, carries out the
  /// library actions; statements without records (and exit()) print nothing.
  void print(const ir::statement& s, const firing& f, std::string& out) {
    const std::span<const std::byte> data(f.data);
    switch (s.kind) {
      case ir::action::trace:
      case ir::action::stack:
      case ir::action::ustack:
        print::print_trace(out, read_record(s.records[0], data), options_.quiet);
        return;
      case ir::action::setopt:  // from here on, as libdtrace's does
        set_printer_option(options_, s.format, s.args.empty() ? std::string() : s.args[0].text);
        return;
      case ir::action::printf: {
        std::vector<print::traced> args;
        for (const auto& r : s.records) args.push_back(read_record(r, data));
        print::print(out, s.parsed_format, args);
        return;
      }
      case ir::action::printa:
        printa(s, out);
        return;
      case ir::action::clear:
        engine_.aggregation(s.aggregation).clear();
        return;
      case ir::action::denormalize:
        engine_.aggregation(s.aggregation).denormalize();
        return;
      case ir::action::normalize: {
        const auto n = read_record(s.records[1], data).as_unsigned();
        if (n != 0) engine_.aggregation(s.aggregation).normalize(n);
        return;
      }
      case ir::action::trunc:
        if (s.records.size() > 1)
          engine_.aggregation(s.aggregation).trunc(read_record(s.records[1], data).as_signed());
        else
          engine_.aggregation(s.aggregation).trunc();
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
    const auto format = print::format::parse(s.format);
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

  source& engine_;
  printer_options options_;
  std::vector<bool> printed_;
  bool heading_ = false;
};

}  // namespace dtpp::consumer
