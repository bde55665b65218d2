// How a clause faults in the in-process engine: a fault_signal of DTrace's kind, with the
// address or value, unwinding to the runner (state.hpp), which reports it.
#pragma once

#include <cstdint>

#include "dtpp/engine/fault.hpp"

namespace dtpp::inproc::detail {

using fault_kind = dtpp::engine::fault_kind;

// A fault stops the clause; the engine reports it as DTrace's ERROR probe would.
struct fault_signal {
  fault_kind kind = fault_kind::unknown;
  std::int64_t value = 0;  ///< the faulting address or value
  /// The faulting operation's number in its clause's compiled code (compile.cpp numbers them
  /// from 1, an operation before its operands); 0 until that operation names itself.
  std::uint32_t pc = 0;
};

// An address this process cannot read (or a store may not reach): DTrace's bad-address fault.
[[noreturn]] inline void bad_address(std::int64_t address) { throw fault_signal{fault_kind::bad_address, address}; }
// A size a copy into scratch memory cannot take: DTrace's bad-size fault.
[[noreturn]] inline void bad_size(std::int64_t size) { throw fault_signal{fault_kind::bad_size, size}; }

}  // namespace dtpp::inproc::detail
