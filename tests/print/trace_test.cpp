// trace() as Linux DTrace prints it: integers by size and signedness, strings, quiet or not; and
// print() of typed objects, as dtrace-utils lays them out.
// Expected lines are dtrace-utils' test/unittest/actions/trace and trace expectations: a
// non-quiet record follows the probe heading ":BEGIN" printed as "%32s ".
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "dtpp/options/table.hpp"
#include "dtpp/print/format.hpp"
#include "dtpp/print/typed.hpp"

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

// ---- print() ------------------------------------------------------------------------------

namespace {

using dtpp::ir::printed_member;
using dtpp::ir::printed_type;
using shape = printed_type::shape;

printed_type scalar(shape kind, std::string name, std::uint32_t size, bool is_signed = false) {
  printed_type t;
  t.kind = kind;
  t.name = std::move(name);
  t.size = size;
  t.is_signed = is_signed;
  return t;
}

printed_type record(std::string name, std::uint32_t size, std::vector<printed_member> members) {
  auto t = scalar(shape::record, std::move(name), size);
  t.members = std::move(members);
  return t;
}

// dtrace-utils' print/tst.print.local*.d struct: a at 0, b at 4, u at 16, s at 24, g at 40, h at 44.
printed_type test_struct() {
  auto b = scalar(shape::array, "char [5]", 5);
  b.count = 5;
  b.members = {{"", 0, scalar(shape::integer, "char", 1, true)}};
  auto h = scalar(shape::enumeration, "enum eh", 4, true);
  h.enumerators = {{1, "FIRSTVAL"}, {2, "SECONDVAL"}, {3, "THIRDVAL"}};
  return record("struct test_struct", 48,
                {{"a", 0, scalar(shape::integer, "int", 4, true)},
                 {"b", 32, b},
                 {"u", 128, record("union", 8, {{"c", 0, scalar(shape::integer, "__u8", 1)}, {"d", 0, scalar(shape::integer, "__u64", 8)}})},
                 {"s", 192, record("struct", 16, {{"e", 0, scalar(shape::pointer, "void *", 8)}, {"f", 64, scalar(shape::integer, "uint64_t", 8)}})},
                 {"g", 320, scalar(shape::integer, "bool", 1)},
                 {"h", 352, h}});
}

template <class T>
void put(std::vector<std::byte>& data, std::size_t at, T v) {
  std::memcpy(data.data() + at, &v, sizeof v);
}

std::string print_object(const printed_type& t, const std::vector<std::byte>& data, std::int64_t printsize) {
  std::string out;
  dtpp::print::print_typed(out, 0x1000, t, data, dtpp::print::printed_size(printsize));
  return out;
}

std::string lines(std::initializer_list<std::pair<int, const char*>> indented) {
  std::string out;
  for (const auto& [depth, text] : indented) out += std::string(44 + depth, ' ') + text + "\n";
  return out;
}

}  // namespace

TEST_CASE("print shows each member that is not zero, as dtrace-utils lays it out", "[print][typed]") {
  std::vector<std::byte> data(48);
  put<std::int32_t>(data, 0, 1);
  std::memcpy(data.data() + 4, "test", 5);
  put<std::uint64_t>(data, 16, 12345678);
  put<std::uint64_t>(data, 24, 0xfeedfacefeedfaceull);
  put<std::uint64_t>(data, 32, 100);
  put<std::uint8_t>(data, 40, 1);
  put<std::int32_t>(data, 44, 1);
  const auto b = lines({{1, ".b = (char [5]) ["}, {2, "(char)'t',"}, {2, "(char)'e',"}, {2, "(char)'s',"},
                        {2, "(char)'t',"}, {1, "],"}});
  // print/tst.print.local.trunc.r: printsize=8 stops at u, printsize=24 at s.
  CHECK(print_object(test_struct(), data, 8) ==
        "0x1000 = *\n" + lines({{0, "(struct test_struct) {"}, {1, ".a = (int)1,"}}) + b +
            lines({{1, "..."}, {0, "}"}}));
  CHECK(print_object(test_struct(), data, 24) ==
        "0x1000 = *\n" + lines({{0, "(struct test_struct) {"}, {1, ".a = (int)1,"}}) + b +
            lines({{1, ".u = (union) {"}, {2, ".c = (__u8)78,"}, {2, ".d = (__u64)12345678,"}, {1, "..."},
                   {1, "},"}, {0, "}"}}));
  // Unset printsize shows 8192 bytes: everything, the largest unsigned and the enum by name.
  put<std::uint64_t>(data, 32, UINT64_MAX);
  CHECK(print_object(test_struct(), data, dtpp::options::unset) ==
        "0x1000 = *\n" + lines({{0, "(struct test_struct) {"}, {1, ".a = (int)1,"}}) + b +
            lines({{1, ".u = (union) {"}, {2, ".c = (__u8)78,"}, {2, ".d = (__u64)12345678,"}, {1, "},"},
                   {1, ".s = (struct) {"}, {2, ".e = (void *)0xfeedfacefeedface,"},
                   {2, ".f = (uint64_t)18446744073709551615,"}, {1, "},"}, {1, ".g = (bool)1,"},
                   {1, ".h = (enum eh)FIRSTVAL,"}, {0, "}"}}));
}

TEST_CASE("print leaves zero members out, stops a char array at its NUL and names no enum value it lacks",
          "[print][typed]") {
  // print/tst.print.local.zeroed.r, with h = 7 (no enumerator) and a negative a.
  std::vector<std::byte> data(48);
  std::memcpy(data.data() + 4, "\0est", 5);
  put<std::uint8_t>(data, 40, 1);
  put<std::int32_t>(data, 44, 7);
  CHECK(print_object(test_struct(), data, 0) ==
        "0x1000 = *\n" + lines({{0, "(struct test_struct) {"}, {1, ".b = (char [5]) ["}, {1, "],"},
                                {1, ".g = (bool)1,"}, {1, ".h = (enum eh)7,"}, {0, "}"}}));
  put<std::int32_t>(data, 0, INT32_MIN);
  std::fill(data.begin() + 4, data.end(), std::byte{0});
  CHECK(print_object(test_struct(), data, 0) ==
        "0x1000 = *\n" + lines({{0, "(struct test_struct) {"}, {1, ".a = (int)-2147483648,"}, {0, "}"}}));
  // All zero: the top-level record still opens and closes.
  CHECK(print_object(test_struct(), std::vector<std::byte>(48), 0) ==
        "0x1000 = *\n" + lines({{0, "(struct test_struct) {"}, {0, "}"}}));
}

TEST_CASE("print shows a bit-field's own bits and nested records closed level by level", "[print][typed]") {
  auto flags = scalar(shape::integer, "unsigned int", 4);
  flags.bit_size = 3;
  auto t = record("struct outer", 16,
                  {{"low", 0, flags},
                   {"high", 3, flags},
                   {"in", 64, record("struct inner", 8, {{"deep", 0, record("struct deepest", 8, {{"x", 0, scalar(shape::integer, "long long", 8, true)}})}})}});
  std::vector<std::byte> data(16);
  put<std::uint8_t>(data, 0, 0x28);  // low 0, high 5
  put<std::int64_t>(data, 8, INT64_MIN);
  CHECK(print_object(t, data, 0) ==
        "0x1000 = *\n" + lines({{0, "(struct outer) {"}, {1, ".high = (unsigned int)5,"}, {1, ".in = (struct inner) {"},
                                {2, ".deep = (struct deepest) {"}, {3, ".x = (long long)-9223372036854775808,"},
                                {2, "},"}, {1, "},"}, {0, "}"}}));
}
