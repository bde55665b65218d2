// trace() as Linux DTrace prints it: integers by size and signedness, strings, quiet or not.
// Expected lines are dtrace-utils' test/unittest/actions/trace and trace expectations: a
// non-quiet record follows the probe heading ":BEGIN" printed as "%32s ".
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>

#include "dtpp/print/format.hpp"

using dtpp::print::traced;

namespace {

std::string trace(const traced& v, bool quiet = false) {
  std::string out;
  dtpp::print::print_trace(out, v, quiet);
  return out;
}

// The probe heading DTrace prints (with _DTRACE_TESTING) before BEGIN's records.
const std::string begin = std::string(26, ' ') + ":BEGIN ";

}  // namespace

TEST_CASE("trace prints each integer size signed or unsigned, with DTrace's widths",
          "[print][trace]") {
  // actions/trace/tst.{,u}int{8,16,32,64}_t.r: trace((intN_t)-1) and trace((uintN_t)-1).
  CHECK(begin + trace(traced::integer(-1, 1, true)) == "                          :BEGIN   -1");
  CHECK(begin + trace(traced::integer(-1, 1, false)) == "                          :BEGIN  255");
  CHECK(begin + trace(traced::integer(-1, 2, true)) == "                          :BEGIN     -1");
  CHECK(begin + trace(traced::integer(-1, 2, false)) == "                          :BEGIN  65535");
  CHECK(begin + trace(traced::integer(-1, 4, true)) ==
        "                          :BEGIN          -1");
  CHECK(begin + trace(traced::integer(-1, 4, false)) ==
        "                          :BEGIN  4294967295");
  CHECK(begin + trace(traced::integer(-1, 8, true)) ==
        "                          :BEGIN                   -1");
  CHECK(begin + trace(traced::integer(-1, 8, false)) ==
        "                          :BEGIN  18446744073709551615");
}

TEST_CASE("trace in quiet mode prints integers without widths", "[print][trace]") {
  // actions/trace/tst.*-quiet.r
  for (const std::uint32_t size : {1u, 2u, 4u, 8u})
    CHECK(trace(traced::integer(-1, size, true), true) == "-1");
  CHECK(trace(traced::integer(-1, 1, false), true) == "255");
  CHECK(trace(traced::integer(-1, 2, false), true) == "65535");
  CHECK(trace(traced::integer(-1, 4, false), true) == "4294967295");
  CHECK(trace(traced::integer(-1, 8, false), true) == "18446744073709551615");
  // actions/trace/tst.expr.r and actions/printf/tst.no-conv.middle.r (trace(1), " two ",
  // trace(3)).
  CHECK(trace(traced::integer(2, 8, true), true) == "2");
  CHECK(trace(traced::integer(1, 4, true), true) + " two " +
            trace(traced::integer(3, 4, true), true) ==
        "1 two 3");
}

TEST_CASE("trace prints the extremes of each size exactly", "[print][trace]") {
  constexpr auto min64 = std::numeric_limits<std::int64_t>::min();
  CHECK(trace(traced::integer(min64, 8, true)) == " -9223372036854775808");
  CHECK(trace(traced::integer(min64, 8, true), true) == "-9223372036854775808");
  CHECK(trace(traced::integer(std::numeric_limits<std::int64_t>::max(), 8, true)) ==
        " 9223372036854775807");
  CHECK(trace(traced::integer(-128, 1, true)) == " -128");
  CHECK(trace(traced::integer(-32768, 2, true)) == " -32768");
  CHECK(trace(traced::integer(std::numeric_limits<std::int32_t>::min(), 4, true)) ==
        " -2147483648");
  CHECK(trace(traced::integer(0, 8, false)) == std::string(20, ' ') + "0");
  CHECK(trace(traced::integer(7, 1, true)) == "   7");
}

TEST_CASE("trace prints strings left-justified in 33 columns, raw when quiet", "[print][trace]") {
  // actions/trace/tst.str.r and tst.str-quiet.r: trace("a").
  CHECK(begin + trace(traced::string("a")) ==
        "                          :BEGIN   a                                ");
  CHECK(trace(traced::string("a"), true) == "a");
  // trace/tst.string.r and tst.qstring.r: three strings, the second and third holding newlines
  // and percent signs.
  const traced strings[] = {traced::string("this"), traced::string(" %should work.\n"),
                            traced::string("%don't w%orry -- this won't cause a %segfault.\n")};
  std::string loud = begin, quiet;
  for (const auto& s : strings) {
    loud += trace(s);
    quiet += trace(s, true);
  }
  CHECK(loud + "\n" ==
        "                          :BEGIN   this                                %should work.\n"
        "                    %don't w%orry -- this won't cause a %segfault.\n\n");
  CHECK(quiet == "this %should work.\n%don't w%orry -- this won't cause a %segfault.\n");
  SECTION("empty and long strings") {
    CHECK(trace(traced::string("")) == std::string(35, ' '));
    CHECK(trace(traced::string(""), true).empty());
    const std::string long_text(300, 'y');
    CHECK(trace(traced::string(long_text)) == "  " + long_text);
    CHECK(trace(traced::string(long_text), true) == long_text);
    CHECK(trace(traced::string(std::string("ab\0cd", 5)), true) == "ab");
  }
}

TEST_CASE("trace prints a stack a frame a line, indented by 14", "[print][trace]") {
  const auto stack = traced::stack({"vmlinux`ksys_write", "a.out`main+0x1c"});
  const std::string indent(14, ' ');
  CHECK(trace(stack) == "\n" + indent + "vmlinux`ksys_write\n" + indent + "a.out`main+0x1c\n");
  CHECK(trace(stack, true) == trace(stack));
}

TEST_CASE("trace dumps an integer of no C size as raw bytes", "[print][trace]") {
  traced odd = traced::integer(0x414243, 8, false);
  odd.size = 3;
  CHECK(trace(odd) ==
        "\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
        "         0: 43 42 41                                         CBA\n");
}
