// A run-time fault in a clause (DTrace's DTRACEFLT_* kinds) as an engine reports it, and its
// text as dtrace-utils prints it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace dtpp::engine {

/// DTrace's fault kinds, with their DTRACEFLT_* numbers (what dtrace:::ERROR's arg4 holds).
enum class fault_kind : std::uint32_t {
  unknown = 0,
  bad_address = 1,
  bad_alignment = 2,
  illegal_operation = 3,
  divide_by_zero = 4,
  no_scratch = 5,
  kernel_access = 6,
  user_access = 7,
  tuple_overflow = 8,
  bad_stack = 9,
  bad_size = 10,
  bad_index = 11,
  library = 1000,  ///< the consumer could not carry out an action (freopen()): its words in `what`
};

/// A fault in a clause, reported as dtrace-utils' ERROR probe reports it; or, with epid 0, a
/// probe the engine could not enable and skipped, reported as libdtrace reports one (an error of
/// its own words, "Failed to enable P:M:F:N", in `what`, to the same handler).
struct fault {
  std::uint32_t epid = 0;   ///< the clause (enabled probe) that faulted
  std::uint32_t probe = 0;  ///< the probe that fired it
  /// dtrace-utils' statement id (its BPF function dt_clause_N): the index, from 0, of the probe
  /// description the clause runs under for this probe, counting every clause's descriptions in
  /// program order (ir::statement_id). dtrace:::ERROR's arg2.
  std::uint32_t statement = 0;
  /// Where in the clause's code: the kernel engine's index of the fault's first instruction in
  /// the clause's part of the BPF program, the in-process engine's number of the faulting
  /// operation in the clause's compiled code (docs/inproc.md). Never 0. dtrace:::ERROR's arg3.
  std::uint32_t pc = 0;
  fault_kind kind = fault_kind::unknown;
  std::uint64_t value = 0;  ///< the faulting address or value: dtrace:::ERROR's arg5
  std::string what;         ///< epid 0: the whole message; a library fault: the fault
};

/// DTrace's words for a fault kind: "invalid address", "divide-by-zero" ...
inline const char* name(fault_kind k) {
  switch (k) {
    case fault_kind::unknown: break;
    case fault_kind::bad_address: return "invalid address";
    case fault_kind::bad_alignment: return "invalid alignment";
    case fault_kind::illegal_operation: return "illegal operation";
    case fault_kind::divide_by_zero: return "divide-by-zero";
    case fault_kind::no_scratch: return "out of scratch space";
    case fault_kind::kernel_access: return "invalid kernel access";
    case fault_kind::user_access: return "invalid user access";
    case fault_kind::tuple_overflow: return "tuple stack overflow";
    case fault_kind::bad_stack: return "bad stack";
    case fault_kind::bad_size: return "invalid size";
    case fault_kind::bad_index: return "index out of bounds";
    case fault_kind::library: return "library error";
  }
  return "unknown fault";
}

/// The fault as dtrace-utils names it: its kind, then the address or value where the kind has
/// one ("invalid address (0x0)", "index out of bounds (-1)", "divide-by-zero").
inline std::string describe(fault_kind k, std::uint64_t value) {
  char detail[32] = "";
  switch (k) {
    case fault_kind::bad_address:
      if (value == UINT64_MAX) break;  // no address known
      [[fallthrough]];
    case fault_kind::bad_alignment:
    case fault_kind::bad_stack:
    case fault_kind::bad_size:
      std::snprintf(detail, sizeof detail, " (0x%llx)", static_cast<unsigned long long>(value));
      break;
    case fault_kind::bad_index:
      std::snprintf(detail, sizeof detail, " (%lld)", static_cast<long long>(value));
      break;
    default:
      break;
  }
  return name(k) + std::string(detail);
}

/// dtrace(1)'s line for a fault, without the "dtrace: " prefix, as dtrace-utils prints it:
/// "error in dt_clause_0 for probe ID 1 (dtrace:::BEGIN): divide-by-zero at BPF pc 12". `probe`
/// is the full name (provider:module:function:name) of the probe whose id the fault names.
inline std::string message(const fault& f, const std::string& probe) {
  if (f.epid == 0) return f.what;  // a probe that could not be enabled
  const auto where = "error in dt_clause_" + std::to_string(f.statement) + " for probe ID " +
                     std::to_string(f.probe) + " (" + probe + "): ";
  if (f.kind == fault_kind::library) return where + f.what;
  return where + describe(f.kind, f.value) + " at BPF pc " + std::to_string(f.pc);
}

}  // namespace dtpp::engine
