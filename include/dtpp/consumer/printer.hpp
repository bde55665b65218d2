// What dtrace(1) prints while a program runs: probe lines, trace(), printf() and printa()
// records in firing order, and the aggregations never printed, at the end.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dtpp/agg/joined.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/out/aggregation.hpp"
#include "dtpp/out/format.hpp"

namespace dtpp::consumer {

struct printer_options {
  bool quiet = false;    ///< -q / quiet: no probe lines
  bool testing = false;  ///< _DTRACE_TESTING: probe lines without the CPU and ID columns
  out::print_options print;
};

/// The options a program's pragmas (and -x) set that change what is printed.
inline printer_options options_of(const ir::program& program, printer_options base = {}) {
  for (const auto& o : program.options) {
    const auto number = [&] { return static_cast<std::size_t>(std::strtoull(o.value.c_str(), nullptr, 0)); };
    if (o.name == "quiet") base.quiet = true;
    if (o.name == "aggsortkey") base.print.sort.sortkey = true;
    if (o.name == "aggsortrev") base.print.sort.sortrev = true;
    if (o.name == "aggsortkeypos") base.print.sort.keypos = number();
    if (o.name == "aggsortpos") base.print.sort.pos = number();
    if (o.name == "aggpercpu") base.print.percpu = true;
    if (o.name == "strsize") base.print.strsize = number();
  }
  return base;
}

/// Formats an engine's records as dtrace(1) does, acting on printa(), clear(), trunc(),
/// normalize() and denormalize() records in order with the others.
class printer {
 public:
  printer(inproc::engine& engine, printer_options options)
      : engine_(engine), program_(engine.program()), options_(std::move(options)),
        printed_(program_.aggregations.size(), false) {}

  void consume(const std::vector<inproc::firing>& firings, std::string& out) {
    for (const auto& f : firings) consume(f, out);
  }

  /// The end of a run: one newline, then every aggregation printa() never printed.
  void finish(std::string& out) {
    out += '\n';
    std::vector<agg::dynamic_table> snapshots;
    for (std::uint32_t id = 1; id <= program_.aggregations.size(); ++id)
      if (!printed_[id - 1]) snapshots.push_back(engine_.aggregation(id).snapshot());
    std::vector<const agg::dynamic_table*> tables;
    for (const auto& t : snapshots) tables.push_back(&t);
    out::print_aggregations<agg::dynamic_key>(out, tables, order::sorted, options_.print);
  }

 private:
  void consume(const inproc::firing& f, std::string& out) {
    const auto& clause = program_.clauses[f.epid - 1];
    if (!options_.quiet) {
      if (!heading_) {
        if (options_.testing) out::detail::append(out, "%32s\n", "FUNCTION:NAME");
        else out::detail::append(out, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
        heading_ = true;
      }
      const auto& probe = engine_.probes()[f.probe - 1];
      const auto name = probe.function + ":" + probe.name;
      if (options_.testing) out::detail::append(out, "%32s ", name.c_str());
      else out::detail::append(out, "%3u %6u %32s ", f.cpu, f.probe, name.c_str());
    }
    for (const auto& s : clause.statements) statement(s, f, out);
    if (!options_.quiet) out += '\n';
  }

  out::traced read(const ir::record& r, const inproc::firing& f) const {
    const auto* at = f.data.data() + r.offset;
    if (r.t.is_string()) {
      const auto* text = reinterpret_cast<const char*>(at);
      return out::traced::string(std::string(text, strnlen(text, r.size)));
    }
    if (r.t.kind == ir::type::category::stack) return out::traced::stack({});
    std::uint64_t bits = 0;
    std::memcpy(&bits, at, std::min<std::size_t>(r.size, 8));
    return out::traced::integer(static_cast<std::int64_t>(bits), r.size, r.t.is_signed);
  }

  void statement(const ir::statement& s, const inproc::firing& f, std::string& out) {
    switch (s.kind) {
      case ir::action::trace:
        out::print_trace(out, read(s.records[0], f), options_.quiet);
        return;
      case ir::action::printf: {
        std::vector<out::traced> args;
        for (const auto& r : s.records) args.push_back(read(r, f));
        out::print(out, out::format::parse(s.format), args);
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
        const auto n = read(s.records[1], f).as_unsigned();
        if (n != 0) engine_.aggregation(s.aggregation).normalize(n);
        return;
      }
      case ir::action::trunc:
        if (s.records.size() > 1) engine_.aggregation(s.aggregation).trunc(read(s.records[1], f).as_signed());
        else engine_.aggregation(s.aggregation).trunc();
        return;
      default:
        return;
    }
  }

  static out::traced traced_key(const agg::record& r) {
    if (r.type.kind == agg::key_type::category::string) return out::traced::string(r.string);
    return out::traced::integer(static_cast<std::int64_t>(r.integer), r.type.size, r.type.is_signed);
  }

  void printa(const ir::statement& s, std::string& out) {
    std::vector<agg::dynamic_table> snapshots;
    for (const auto id : s.aggregations) snapshots.push_back(engine_.aggregation(id).snapshot());
    std::vector<const agg::dynamic_table*> tables;
    for (const auto& t : snapshots) tables.push_back(&t);
    for (std::size_t i = 0; i < tables.size(); ++i)
      if (!tables[i]->empty()) printed_[s.aggregations[i] - 1] = true;
    if (!s.has_format) {
      out += '\n';
      if (tables.size() == 1) out::print_aggregations<agg::dynamic_key>(out, tables, order::sorted, options_.print);
      else out::print_joined<agg::dynamic_key>(out, tables, options_.print);
      return;
    }
    const auto format = out::format::parse(s.format);
    std::vector<std::vector<std::uint64_t>> zero;
    for (const auto* t : tables) zero.push_back(agg::zero_words(t->desc()));
    for (const auto& b : agg::joined_bundles<agg::dynamic_key>(tables, options_.print.sort)) {
      std::vector<out::traced> keys;
      for (const auto& r : tables[b.key.table]->key(b.key.row).records) keys.push_back(traced_key(r));
      std::vector<out::aggregated> values;
      for (std::size_t p = 0; p < tables.size(); ++p) {
        const auto& t = *tables[p];
        const auto& member = b.members[p];
        values.push_back({t.desc().fn, member ? t.words(*member) : std::span<const std::uint64_t>(zero[p]), t.normal()});
      }
      out::print_printa(out, format, keys, values);
    }
  }

  inproc::engine& engine_;
  const ir::program& program_;
  printer_options options_;
  std::vector<bool> printed_;
  bool heading_ = false;
};

}  // namespace dtpp::consumer
