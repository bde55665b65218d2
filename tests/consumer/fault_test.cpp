// A fault's text as dtrace-utils prints it (dtpp/engine/fault.hpp): each kind's words, the value
// where the kind has one, and the whole line.
#include "dtpp/engine/fault.hpp"

#include <catch2/catch.hpp>
#include <cstdint>

using namespace dtpp;

TEST_CASE("a fault's value is printed as dtrace-utils prints its kind's", "[consumer][fault]") {
  using engine::fault_kind;
  CHECK(engine::describe(fault_kind::bad_address, 0) == "invalid address (0x0)");
  CHECK(engine::describe(fault_kind::bad_address, 0xffffffffffffff00) == "invalid address (0xffffffffffffff00)");
  CHECK(engine::describe(fault_kind::bad_address, UINT64_MAX) == "invalid address");  // none known
  CHECK(engine::describe(fault_kind::bad_alignment, 0x7) == "invalid alignment (0x7)");
  CHECK(engine::describe(fault_kind::bad_size, 0x10) == "invalid size (0x10)");
  CHECK(engine::describe(fault_kind::bad_stack, 0) == "bad stack (0x0)");
  CHECK(engine::describe(fault_kind::bad_index, static_cast<std::uint64_t>(-1)) == "index out of bounds (-1)");
  CHECK(engine::describe(fault_kind::bad_index, static_cast<std::uint64_t>(INT64_MIN)) ==
        "index out of bounds (-9223372036854775808)");
  CHECK(engine::describe(fault_kind::divide_by_zero, 0) == "divide-by-zero");
  CHECK(engine::describe(fault_kind::illegal_operation, 37) == "illegal operation");
  CHECK(engine::describe(fault_kind::no_scratch, 1000) == "out of scratch space");
  CHECK(engine::describe(fault_kind::unknown, 1) == "unknown fault");
  CHECK(engine::describe(static_cast<fault_kind>(999), 1) == "unknown fault");

  engine::fault f;
  f.epid = 3;
  f.probe = 4294967295u;
  f.statement = 4294967295u;
  f.pc = 1;
  f.kind = fault_kind::bad_address;
  f.value = 0x10;
  CHECK(engine::message(f, "syscall:vmlinux:read:entry") ==
        "error in dt_clause_4294967295 for probe ID 4294967295 (syscall:vmlinux:read:entry): invalid address (0x10) "
        "at BPF pc 1");
  f.epid = 0;
  f.what = "Failed to enable pid1:a.out:main:entry";
  CHECK(engine::message(f, "pid1:a.out:main:entry") == "Failed to enable pid1:a.out:main:entry");
}
