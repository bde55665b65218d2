// dtrace(1)'s output one record at a time: the probe line that opens a firing, each record of it,
// the newline that closes it, and the aggregations printa() left unprinted. The consumer's session
// prints through it as its callbacks accept records.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dtpp/agg/walk.hpp"
#include "dtpp/consumer/flow_indent.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/options/set.hpp"
#include "dtpp/print/aggregation.hpp"
#include "dtpp/print/folded.hpp"
#include "dtpp/print/json_fwd.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::consumer {

/// -x oformat: dtrace(1)'s text, a JSON document a line (records and aggregations), or text with
/// aggregations as folded stacks.
enum class output_format { text, json, folded };

struct printer_options {
  bool quiet = false;    ///< -q / quiet: no probe lines
  bool flowindent = false;  ///< -F / flowindent: probe lines show the flow of calls, even when quiet
  bool testing = false;  ///< _DTRACE_TESTING: probe lines without the CPU and ID columns
  output_format format = output_format::text;
  print::print_options print;
  std::size_t printsize = 8192;  ///< how many bytes of an object print() shows
};

/// What the options say about printing; read again whenever one changes.
printer_options printing(const options::option_set& o, bool testing = false);

/// One record's value, read from a clause's data where its description places it.
print::traced read_record(const ir::record& r, std::span<const std::byte> data);

/// Prints an engine's firings record by record, as dtrace(1) prints them whole:
///
///     record_printer p(engine, options);
///     p.open(firing, text);                          // "  0      1    :BEGIN " unless quiet
///     for (const auto& s : clause.statements) p.print(s, firing, text);
///     p.close(text);                                 // "\n" unless quiet
///
/// With -x oformat=json a firing prints as one line, {"cpu", "id", "enabled probe id", "probe",
/// "output": [its records]}, and each aggregation as one line (print/json.hpp); with
/// -x oformat=folded aggregations print as folded stacks (print/folded.hpp).
class record_printer {
 public:
  record_printer(engine::source& engine, printer_options options);

  /// Options change while a program runs (setopt of quiet, aggsortkey ...).
  void set_options(printer_options options) { options_ = std::move(options); }
  const printer_options& options() const { return options_; }

  /// The probe line that opens a firing, after the column heading the first time; nothing when
  /// quiet.
  void open(const engine::firing& f, std::string& out);

  /// open() under flowindent: a FUNCTION column instead of FUNCTION:NAME, printed when quiet too,
  /// as dtrace(1) prints it.
  void open_flow(const engine::firing& f, std::string& out);

  /// The newline that closes a firing; nothing when quiet. In JSON, the firing's line (when
  /// quiet, only a firing with records has one).
  void close(std::string& out) const;

  /// One record of a firing: trace(), stack(), ustack(), printf() and printa() print; the other
  /// statements print nothing (the session carries out the library actions).
  void print(const ir::statement& s, const engine::firing& f, std::string& out);

  /// trace() under rawbytes, as dtrace-utils prints it: an integer's or a string's record dumped
  /// as bytes (an integer's in memory order, a string's text and NUL padding), quiet or not; a
  /// stack or a symbol as without it.
  void print_raw_record(const ir::record& r, std::span<const std::byte> data, std::string& out) const;

  /// print(): the object whose address and bytes the statement recorded, as dtrace-utils lays
  /// it out.
  void print_typed(const ir::statement& s, std::span<const std::byte> data, std::string& out) const;
  /// tracemem()'s bytes: as many as it said to show.
  static std::string_view traced_memory(const ir::statement& s, std::span<const std::byte> data);

  /// One record as a JSON document, or null for a statement that records nothing printable:
  /// trace() {"value": V}, stack() {"stack": [frames]}, ustack() {"ustack": [frames]}, printf()
  /// {"message": its text}, printa() {"printa": [aggregations]} (its format left aside), print()
  /// {"print": its text}, tracemem() {"tracemem": the bytes shown in hex}, exit() {"exit": status}.
  print::json json_record(const ir::statement& s, std::span<const std::byte> data) const;

  /// An aggregation (variable id `id`) as a JSON document, its rows in the walk's order.
  print::json aggregation_json(std::uint32_t id, order o = order::sorted) const;

  /// Every aggregation keyed by a stack() or ustack(), folded together.
  print::folded_stacks folded_stack_aggregations() const;

  /// dtrace_aggregate_print(): every aggregation printa() has not printed, in the walk's order,
  /// without the newline dtrace(1) prints before them at the end of a run. In JSON each is a
  /// line (an empty one too, with no rows); folded, each prints its stacks.
  void unprinted_aggregations(std::string& out, order o = order::sorted) const;

 private:
  // A firing's line up to its records: the same for every firing of one clause on one probe and
  // CPU, so written once (print::json_firing's document without its closing "[]}").
  const std::string& firing_prefix(const engine::firing& f);
  void mark_printed(const ir::statement& s);
  // printa() marks the aggregations it printed tuples of, so that the end of a run skips them.
  void printa(const ir::statement& s, std::string& out);

  engine::source& engine_;
  printer_options options_;
  std::vector<bool> printed_;
  bool heading_ = false;
  flow_indent flow_;  // flowindent's depth on each CPU
  // JSON: the firing being printed, up to its records so far, and whether it has any.
  std::string firing_line_;
  bool firing_records_ = false;
  std::map<std::array<std::uint32_t, 3>, std::string> firing_prefixes_;  // by probe, clause, CPU
};

}  // namespace dtpp::consumer
