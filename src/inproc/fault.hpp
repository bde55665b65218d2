// How a clause faults in the in-process engine: DTrace's fault codes, and the faults that carry
// an address or a size, worded as the kernel engine's.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace dtpp::inproc::detail {

// A fault stops the clause; the engine reports it as DTrace's ERROR probe would.
struct fault_signal {
  std::string what;
  std::int64_t code = 0;   ///< DTrace's DTRACEFLT_* number
  std::int64_t value = 0;  ///< the faulting address or value
};
inline constexpr std::int64_t fault_bad_address = 1;  // DTRACEFLT_BADADDR
inline constexpr std::int64_t fault_illegal_operation = 3;  // DTRACEFLT_ILLOP
inline constexpr std::int64_t fault_divide_by_zero = 4;  // DTRACEFLT_DIVZERO
inline constexpr std::int64_t fault_no_scratch = 5;  // DTRACEFLT_NOSCRATCH
inline constexpr std::int64_t fault_bad_size = 10;  // DTRACEFLT_BADSIZE

// An address this process cannot read (or a store may not reach): DTrace's bad-address fault.
[[noreturn]] inline void bad_address(std::int64_t address) {
  char what[64];
  std::snprintf(what, sizeof what, "invalid address (0x%llx)", static_cast<unsigned long long>(address));
  throw fault_signal{what, fault_bad_address, address};
}
// A size a copy into scratch memory cannot take: DTrace's bad-size fault.
[[noreturn]] inline void bad_size(std::int64_t size) {
  char what[64];
  std::snprintf(what, sizeof what, "invalid size (0x%llx)", static_cast<unsigned long long>(size));
  throw fault_signal{what, fault_bad_size, size};
}

}  // namespace dtpp::inproc::detail
