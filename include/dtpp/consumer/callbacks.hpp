// What a consumer's callbacks see and answer: a firing (dtrace_probedata_t), its records
// (dtrace_recdesc_t and their data), faults (dtrace_errdata_t) and drops (dtrace_dropdata_t).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "dtpp/consumer/record_printer.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/print/value.hpp"

namespace dtpp::consumer {

/// What a consume callback tells the consumer (DTRACE_CONSUME_*).
enum class consume : int {
  error = -1,       ///< stop: work() throws error (errc::callback_error)
  this_record = 0,  ///< print the firing or record as dtrace(1) would
  next = 1,         ///< skip it: the callback dealt with it
  abort = 2,        ///< stop: work() throws error (errc::aborted)
};

/// One firing of an enabled probe, as the probe callback sees it (dtrace_probedata_t).
struct probe_data {
  const engine::probe_info& probe;  ///< the probe that fired
  const ir::clause& clause;         ///< the enabled probe: the clause whose records follow
  std::uint32_t epid = 0;
  std::uint32_t cpu = 0;
  std::span<const std::byte> data;  ///< the clause's records, where clause.statements put them
};

/// One record of a firing, as the record callback sees it (dtrace_recdesc_t and its data): the
/// statement that wrote it (trace, printf, printa, exit, stack ...) and its values: printf's
/// arguments, exit()'s status, printa's aggregation ids.
struct record_data {
  const ir::statement& statement;
  std::span<const std::byte> data;  ///< the whole firing's data

  ir::action action() const { return statement.kind; }
  std::size_t values() const { return statement.records.size(); }
  print::traced value(std::size_t i = 0) const { return read_record(statement.records.at(i), data); }
  std::int64_t integer(std::size_t i = 0) const { return value(i).as_signed(); }
  std::string string(std::size_t i = 0) const { return value(i).text; }
};

/// A fault in a clause (division by zero ...), as dtrace-utils' ERROR probe reports it
/// (dtrace_errdata_t); with fault.epid 0, a probe that could not be enabled (see engine::fault).
struct fault_data {
  const engine::probe_info& probe;  ///< the probe that fired the faulting clause
  const engine::fault& fault;

  /// The fault alone: "divide-by-zero", "invalid address (0x0)"; the whole message for epid 0.
  std::string what() const {
    return fault.epid && fault.kind != engine::fault_kind::library ? engine::describe(fault.kind, fault.value)
                                                                    : fault.what;
  }

  /// dtrace(1)'s line for it, without the "dtrace: " prefix, as dtrace-utils prints it:
  /// "error in dt_clause_0 for probe ID 1 (dtrace:::BEGIN): divide-by-zero at BPF pc 12".
  std::string message() const {
    return engine::message(fault, probe.provider + ":" + probe.module + ":" + probe.function + ":" + probe.name);
  }
};

/// Data lost since the last look (dtrace_dropdata_t): what, where and how much.
struct drop_data {
  engine::drop_count drops;
  bool tagged = false;  ///< -x droptags: the message starts with the kind's tag

  /// dtrace(1)'s line for it, without the "dtrace: " prefix: "3 drops on CPU 1", or tagged
  /// "[DTRACEDROP_PRINCIPAL] 3 drops on CPU 1".
  std::string message() const {
    return tagged ? "[" + std::string(engine::tag(drops.what)) + "] " + engine::describe(drops)
                  : engine::describe(drops);
  }
};

using probe_callback = std::function<consume(const probe_data&)>;
/// Called for each record of a firing, then once with nullptr when the firing ends.
using record_callback = std::function<consume(const probe_data&, const record_data*)>;
using fault_callback = std::function<void(const fault_data&)>;
using drop_callback = std::function<void(const drop_data&)>;

}  // namespace dtpp::consumer
