// printf() as DTrace prints it: every conversion, flags, widths and precisions (fixed and `*`),
// %S escapes, times, and formats DTrace would reject. Expected text is taken from dtrace-utils'
// test/unittest/printf and actions/printf expectations where they exist.
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "dtpp/print/format.hpp"
#include "time_zone.hpp"

using dtpp::print::format;
using dtpp::print::traced;

namespace {

std::string printf_(std::string_view fmt, std::initializer_list<traced> args = {}) {
  std::string out;
  const std::vector<traced> v(args);
  dtpp::print::print(out, format::parse(fmt), v);
  return out;
}

traced i8(std::int64_t v) { return traced::integer(v, 1, true); }
traced u8(std::int64_t v) { return traced::integer(v, 1, false); }
traced i16(std::int64_t v) { return traced::integer(v, 2, true); }
traced u16(std::int64_t v) { return traced::integer(v, 2, false); }
traced i32(std::int64_t v) { return traced::integer(v, 4, true); }
traced u32(std::int64_t v) { return traced::integer(v, 4, false); }
traced i64(std::int64_t v) { return traced::integer(v, 8, true); }
traced u64(std::uint64_t v) { return traced::integer(static_cast<std::int64_t>(v), 8, false); }
traced str(std::string s) { return traced::string(std::move(s)); }

constexpr std::uint64_t nanosec = 1000000000;

}  // namespace

TEST_CASE("integers print at their own size, %d by the argument's signedness", "[print][printf]") {
  // printf/tst.ints.d: 0x1234567890abcdef cast to char, short, int, long long and unsigned ones.
  // The two signed %d lines follow illumos (tst.ints.d.out) and dtrace-utils' own code (a signed
  // 1-byte record prints through int8_t): dtrace-utils' tst.ints.r, which shows 239 and 52719
  // there, dates from DTrace 1 and is marked `@@xfail: dtv2`.
  const std::int64_t v = 0x1234567890abcdef;
  const traced s[] = {i8(v), i16(v), i32(v), i64(v)};
  const traced u[] = {u8(v), u16(v), u32(v), u64(static_cast<std::uint64_t>(v))};
  std::string out;
  const auto block = [&](const char* conv, const traced(&args)[4]) {
    const std::string first = std::string("\n") + conv + "\n";
    const std::string rest = std::string(conv) + "\n";
    out += printf_(first, {args[0]});
    for (int i = 1; i < 4; ++i) out += printf_(rest, {args[i]});
  };
  block("%d", s);
  block("%d", u);
  block("%u", s);
  block("%u", u);
  block("%x", u);
  block("%x", s);
  block("%o", u);
  block("%o", s);
  out += printf_("\n%p\n", {u64(0x12345678)});
  out += printf_("%p\n", {u64(0x90abcdef)});
  out += printf_("%p\n", {u64(0x67890abc)});
  CHECK(out ==
        "\n-17\n-12817\n-1867788817\n1311768467294899695\n"
        "\n239\n52719\n2427178479\n1311768467294899695\n"
        "\n239\n52719\n2427178479\n1311768467294899695\n"
        "\n239\n52719\n2427178479\n1311768467294899695\n"
        "\nef\ncdef\n90abcdef\n1234567890abcdef\n"
        "\nef\ncdef\n90abcdef\n1234567890abcdef\n"
        "\n357\n146757\n22052746757\n110642547422052746757\n"
        "\n357\n146757\n22052746757\n110642547422052746757\n"
        "\n12345678\n90abcdef\n67890abc\n");
}

TEST_CASE("every integer and string conversion prints as in DTrace's basics test",
          "[print][printf]") {
  // printf/tst.basics.d with i = 'a' (%a aside: no symbols in-process).
  const auto i = i32('a');
  CHECK(printf_("%%c = %c\n", {i}) == "%c = a\n");
  CHECK(printf_("%%d = %d\n", {i}) == "%d = 97\n");
  CHECK(printf_("%%hd = %hd\n", {i16('a')}) == "%hd = 97\n");
  CHECK(printf_("%%hi = %hi\n", {i16('a')}) == "%hi = 97\n");
  CHECK(printf_("%%ho = %ho\n", {u16('a')}) == "%ho = 141\n");
  CHECK(printf_("%%hu = %hu\n", {u16('a')}) == "%hu = 97\n");
  CHECK(printf_("%%hx = %hx\n", {u16('a')}) == "%hx = 61\n");
  CHECK(printf_("%%hX = %hX\n", {u16('a')}) == "%hX = 61\n");
  CHECK(printf_("%%i = %i\n", {i}) == "%i = 97\n");
  CHECK(printf_("%%lc = %lc\n", {i}) == "%lc = a\n");
  CHECK(printf_("%%ld = %ld\n", {i64('a')}) == "%ld = 97\n");
  CHECK(printf_("%%li = %li\n", {i64('a')}) == "%li = 97\n");
  CHECK(printf_("%%lo = %lo\n", {u64('a')}) == "%lo = 141\n");
  CHECK(printf_("%%lu = %lu\n", {u64('a')}) == "%lu = 97\n");
  CHECK(printf_("%%lx = %lx\n", {u64('a')}) == "%lx = 61\n");
  CHECK(printf_("%%lX = %lX\n", {u64('a')}) == "%lX = 61\n");
  CHECK(printf_("%%o = %o\n", {u32('a')}) == "%o = 141\n");
  CHECK(printf_("%%p = %p\n", {u64('a')}) == "%p = 61\n");
  CHECK(printf_("%%s = %s\n", {str("hello")}) == "%s = hello\n");
  CHECK(printf_("%%u = %u\n", {u32('a')}) == "%u = 97\n");
  CHECK(printf_("%%x = %x\n", {u32('a')}) == "%x = 61\n");
  CHECK(printf_("%%X = %X\n", {u32('a')}) == "%X = 61\n");
  // actions/printf/tst.conv_c.d, tst.conv_d_signed.d, tst.conv_d_unsigned.d.
  CHECK(printf_("%c", {i32(0x41)}) == "A");
  // %c of 0 is a NUL byte, as dtrace(1)'s vfprintf writes it, and the text after it stays.
  CHECK(printf_("[%c]after", {i32(0)}) == std::string("[\0]after", 8));
  CHECK(printf_("%d", {i32(-12345)}) == "-12345");
  CHECK(printf_("%d", {u32(-12345)}) == "4294954951");
  // The long and long long forms.
  CHECK(printf_("%lld %lli %llu %llo %llx %llX",
                {i64(-1), i64(-2), u64(3), u64(8), u64(255), u64(255)}) == "-1 -2 3 10 ff FF");
}

TEST_CASE("a size prefix makes d and i signed, and u o x X unsigned, whatever the argument",
          "[print][printf]") {
  CHECK(printf_("%hd", {u16(65535)}) == "-1");
  CHECK(printf_("%ld", {u64(std::numeric_limits<std::uint64_t>::max())}) == "-1");
  CHECK(printf_("%u", {i8(-1)}) == "255");
  CHECK(printf_("%lu", {i64(-1)}) == "18446744073709551615");
  CHECK(printf_("%X", {i16(-2)}) == "FFFE");
  CHECK(printf_("%i", {u32(-1)}) == "4294967295");
}

TEST_CASE("the extremes of 64-bit integers print exactly", "[print][printf]") {
  constexpr auto min = std::numeric_limits<std::int64_t>::min();
  constexpr auto max = std::numeric_limits<std::uint64_t>::max();
  CHECK(printf_("%d", {i64(min)}) == "-9223372036854775808");
  CHECK(printf_("%d", {u64(max)}) == "18446744073709551615");
  CHECK(printf_("%x", {i64(min)}) == "8000000000000000");
  CHECK(printf_("%o", {u64(max)}) == "1777777777777777777777");
  CHECK(printf_("%#X", {u64(max)}) == "0XFFFFFFFFFFFFFFFF");
  CHECK(printf_("%+d %+d", {i64(std::numeric_limits<std::int64_t>::max()), i64(min)}) ==
        "+9223372036854775807 -9223372036854775808");
}

TEST_CASE("flags print as in DTrace's flags test", "[print][printf]") {
  // printf/tst.flags.r (its 0x123 line is masked there as {ptr}).
  CHECK(printf_("# %#8x\n", {i32(0x123)}) == "#    0x123\n");
  CHECK(printf_("0 %08x\n", {i32(0x123)}) == "0 00000123\n");
  CHECK(printf_("- %-8x\n", {i32(0x123)}) == "- 123     \n");
  CHECK(printf_("+ %+8d\n", {i32(123)}) == "+     +123\n");
  CHECK(printf_("  % 8d\n", {i32(123)}) == "       123\n");
  SECTION("'-' cancels an earlier '0', and a '0' after '-' cancels the '-'") {
    CHECK(printf_("[%0-5d]", {i32(7)}) == "[7    ]");
    CHECK(printf_("[%-05d]", {i32(7)}) == "[00007]");
  }
  SECTION("the grouping flag is passed on to the C library, which groups nothing in C") {
    CHECK(printf_("%'d", {i32(1234567)}) == "1234567");
  }
  SECTION("'?' sets a pointer's width, 16") {
    // printf/tst.widths1.r
    std::string out = printf_("\n");
    for (int x = 0; x < 6; ++x) out += printf_("%?d\n", {i32(x)});
    CHECK(out ==
          "\n               0\n               1\n               2\n               3\n"
          "               4\n               5\n");
  }
}

TEST_CASE("widths and precisions, fixed or from arguments, print as in DTrace's tests",
          "[print][printf]") {
  SECTION("tst.widths: %0d to %5d and %*d with 0 to 5") {
    std::string out = printf_("\n");
    for (const char* f : {"%0d\n", "%1d\n", "%2d\n", "%3d\n", "%4d\n", "%5d\n"})
      out += printf_(f, {i32(1)});
    for (int x = 0; x < 6; ++x) out += printf_("%*d\n", {i32(x), i32(1)});
    CHECK(out == "\n1\n1\n 1\n  1\n   1\n    1\n1\n1\n 1\n  1\n   1\n    1\n");
  }
  SECTION("tst.precs: a precision of 0 is dropped, so %.0s prints the whole string") {
    std::string out = printf_("\n");
    for (const char* f : {"%.0s\n", "%.1s\n", "%.2s\n", "%.3s\n", "%.4s\n", "%.5s\n"})
      out += printf_(f, {str("hello")});
    for (int x = 0; x < 6; ++x) out += printf_("%.*s\n", {i32(x), str("hello")});
    CHECK(out == "\nhello\nh\nhe\nhel\nhell\nhello\nhello\nh\nhe\nhel\nhell\nhello\n");
  }
  SECTION("tst.wp: width and precision together") {
    std::string out = printf_("\n");
    for (int x = 0; x < 10; ++x)
      out += printf_(std::string("%") + std::to_string(x) + "." + std::to_string(x) + "s\n",
                     {str("hello")});
    for (int x = 0; x < 10; ++x) out += printf_("%*.*s\n", {i32(x), i32(x), str("hello")});
    const std::string block =
        "hello\nh\nhe\nhel\nhell\nhello\n hello\n  hello\n   hello\n    hello\n";
    CHECK(out == "\n" + block + block);
  }
  SECTION("a negative * width left-justifies, a negative * precision is ignored") {
    CHECK(printf_("[%*d]", {i32(-5), i32(1)}) == "[1    ]");
    CHECK(printf_("[%-*d]", {i32(5), i32(1)}) == "[1    ]");
    CHECK(printf_("[%*s]", {i64(-7), str("ab")}) == "[ab     ]");
    CHECK(printf_("[%.*s]", {i32(-1), str("hello")}) == "[hello]");
    CHECK(printf_("[%*.*d]", {i32(6), i32(3), i32(7)}) == "[   007]");
  }
  SECTION("* arguments are read sign-extended from their size, whatever their signedness") {
    CHECK(printf_("[%*d]", {u8(0xfd), i32(1)}) == "[1  ]");
  }
  SECTION("tst.wide: widths and precisions of ten million") {
    const auto wide = printf_("%10000000d\n", {i32(1)});
    CHECK(wide.size() == 10000001);
    CHECK(wide == std::string(9999999, ' ') + "1\n");
    CHECK(printf_("%.10000000d\n", {i32(1)}) == std::string(9999999, '0') + "1\n");
    CHECK(printf_("%10000000.10000000d\n", {i32(1)}) == std::string(9999999, '0') + "1\n");
  }
  SECTION("widths and precisions past 2^24 are clamped to it, fixed or *") {
    const auto max_shown = static_cast<std::size_t>(dtpp::print::max_width) + 1;
    const std::string clamped = std::string(max_shown - 2, ' ') + "1|";
    CHECK(printf_("%2147483647d|", {i32(1)}) == clamped);
    CHECK(printf_("%*d|", {i32(2147483647), i32(1)}) == clamped);
    CHECK(printf_("%-*d|", {i32(-2147483647), i32(1)}).size() == max_shown);
    CHECK(printf_("%.2147483647d|", {i32(1)}).size() == max_shown);
  }
}

TEST_CASE("strings print whole, padded or cut as C prints them", "[print][printf]") {
  CHECK(printf_("[%s]", {str("")}) == "[]");
  CHECK(printf_("[%5s]", {str("")}) == "[     ]");
  CHECK(printf_("[%-6s]", {str("ab")}) == "[ab    ]");
  CHECK(printf_("[%6s]", {str("ab")}) == "[    ab]");
  CHECK(printf_("[%.2s]", {str("abcdef")}) == "[ab]");
  CHECK(printf_("[%s]", {str(std::string("ab\0cd", 5))}) == "[ab]");
  const std::string long_text(1000, 'x');
  CHECK(printf_("%s", {str(long_text)}) == long_text);
  CHECK(printf_("[%-1005s]", {str(long_text)}) == "[" + long_text + "     ]");
  CHECK(printf_("%.300s", {str(long_text)}) == std::string(300, 'x'));
  // printf/tst.rawfmt and actions/printf/tst.no-conv.only: a format without conversions.
  CHECK(printf_("hello world from BEGIN") == "hello world from BEGIN");
}

TEST_CASE("%S and %C print C escapes and octal for other unprintable bytes", "[print][printf]") {
  CHECK(printf_("%S", {str("\a\b\f\n\r\t\v\"\\")}) == R"(\a\b\f\n\r\t\v\"\\\0)");
  CHECK(printf_("%S", {str("a b~!")}) == R"(a b~!\0)");
  CHECK(printf_("%S", {str("\x01\x1f\x7f\x80\xff")}) == R"(\001\037\177\200\377\0)");
  CHECK(printf_("%S", {str("")}) == R"(\0)");
  CHECK(printf_("[%8S]", {str("a\n")}) == R"([   a\n\0])");
  CHECK(printf_("%C%C%C%C", {i32('A'), i8('\n'), i8(0), u8(0xc8)}) == R"(A\n\0\310)");
}

TEST_CASE("%Y and %T print local time as DTrace does", "[print][printf]") {
  SECTION("in UTC") {
    const time_zone utc("UTC");
    CHECK(printf_("%Y", {u64(0)}) == "1970 Jan  1 00:00:00");
    CHECK(printf_("%T", {u64(0)}) == "Thu, 01 Jan 1970 00:00:00 UTC");
    CHECK(printf_("%Y", {u64(123787200 * nanosec + 999999999)}) == "1973 Dec  3 17:20:00");
    CHECK(printf_("%Y|%T", {u64(1062609821 * nanosec), u64(1062609821 * nanosec)}) ==
          "2003 Sep  3 17:23:41|Wed, 03 Sep 2003 17:23:41 UTC");
    CHECK(printf_("[%-22Y]", {u64(0x7fffffff * nanosec)}) == "[2038 Jan 19 03:14:07  ]");
    // DTrace's %T takes strftime's %G, the ISO week-based year: 2024-12-30 is in 2025's week 1.
    CHECK(printf_("%T", {u64(1735560000 * nanosec)}) == "Mon, 30 Dec 2025 12:00:00 UTC");
  }
  SECTION("in US/Pacific, as actions/printf/tst.conv_Y and tst.conv_T expect") {
    const time_zone us(time_zone::us_pacific);
    const traced times[] = {u64(0), u64(1062609821 * nanosec), u64(0x7fffffff * nanosec)};
    std::string out;
    dtpp::print::print(out, format::parse("%Y\n%Y\n%Y"), times);
    CHECK(out == "1969 Dec 31 16:00:00\n2003 Sep  3 10:23:41\n2038 Jan 18 19:14:07");
    out.clear();
    dtpp::print::print(out, format::parse("%T\n%T\n%T"), times);
    CHECK(out ==
          "Wed, 31 Dec 1970 16:00:00 PST\nWed, 03 Sep 2003 10:23:41 PDT\n"
          "Mon, 18 Jan 2038 19:14:07 PST");
  }
}

TEST_CASE("addresses print as 0x hexadecimal, %p without the 0x", "[print][printf]") {
  // %a of an address no kernel symbol holds (below the kernel's, named by root in kallsyms).
  CHECK(printf_("%a", {u64(0x7fffffff81000000)}) == "0x7fffffff81000000");
  CHECK(printf_("[%12A]", {u64(0x401000)}) == "[    0x401000]");
  CHECK(printf_("%a", {u32(0x1234)}) == "0x1234");
  CHECK(printf_("%p", {u64(0xffffffff81000000)}) == "ffffffff81000000");
  CHECK(printf_("%#p", {u64(0x10)}) == "0x10");
}

TEST_CASE("%k prints a stack a frame a line, %-Nk indenting by N", "[print][printf]") {
  const traced stack = traced::stack({"vmlinux`ksys_write+0x5", "0x1000"});
  CHECK(printf_("%k", {stack}) == "\nvmlinux`ksys_write+0x5\n0x1000\n");
  CHECK(printf_("%-4k", {stack}) == "\n    vmlinux`ksys_write+0x5\n    0x1000\n");
  CHECK(printf_("%8k", {traced::stack({"0x10"})}) == "\n    0x10\n");
  // A negative * width both indents and left-justifies.
  CHECK(printf_("%*k", {i32(-8), traced::stack({"0x10"})}) == "\n        0x10    \n");
  // An empty stack (BEGIN has no kernel stack) is the newline alone.
  CHECK(printf_("%k|", {traced::stack({})}) == "\n|");
}

TEST_CASE("%% prints a percent sign and text around conversions prints as written",
          "[print][printf]") {
  CHECK(printf_("100%%") == "100%");
  CHECK(printf_("%%%d%%", {i32(5)}) == "%5%");
  CHECK(printf_("one %d two %s three", {i32(1), str("x")}) == "one 1 two x three");
  CHECK(printf_("") == "");
}

TEST_CASE("formats DTrace would reject print as written without consuming arguments",
          "[print][printf]") {
  CHECK(printf_("%q %d", {i32(7)}) == "%q 7");
  CHECK(printf_("%5.3.2d|%d", {i32(7)}) == "%5.3.2d|7");
  CHECK(printf_("%**d|%d", {i32(7)}) == "%**d|7");
  CHECK(printf_("%1$d|%d", {i32(7)}) == "%1$d|7");
  CHECK(printf_("%5%|%d", {i32(7)}) == "%5%|7");
  CHECK(printf_("%Ld|%d", {i32(7)}) == "%Ld|7");
  // DTrace's table has neither C's hh and z sizes nor %I and %P.
  CHECK(printf_("%hhd|%zu|%d", {i32(7)}) == "%hhd|%zu|7");
  CHECK(printf_("[%I] [%P] [%d]\n", {i32(6), i32(7), i32(8)}) == "[%I] [%P] [6]\n");
  CHECK(printf_("50%") == "50%");
  CHECK(printf_("%-") == "%-");
  SECTION("%@ belongs to printa") { CHECK(printf_("%@d|%d", {i32(7)}) == "%@d|7"); }
  SECTION("a conversion without its argument prints as written") {
    CHECK(printf_("%d %d", {i32(1)}) == "1 %d");
    CHECK(printf_("%*d", {}) == "%*d");
  }
  SECTION("a value of the wrong kind prints as text") {
    CHECK(printf_("%d|%s|%c|%Y", {str("x"), i32(-3), str("y"), str("z")}) == "x|-3|y|z");
  }
}

TEST_CASE("%e %E %f %g %G read a float's or a double's bits by their size, as dtrace-utils does",
          "[print][printf]") {
  const auto f32 = [](std::uint32_t bits) { return traced::integer(bits, 4, false); };
  const auto f64 = [](std::uint64_t bits) { return traced::integer(static_cast<std::int64_t>(bits), 8, false); };
  // The zero of an unassigned variable, as actions/printf/tst.conv_*_{float,double} print it.
  CHECK(printf_("%e %E %f %g %G", {f32(0), f32(0), f32(0), f32(0), f32(0)}) == "0.000000e+00 0.000000E+00 0.000000 0 0");
  CHECK(printf_("%e %E %f %g %G", {f64(0), f64(0), f64(0), f64(0), f64(0)}) == "0.000000e+00 0.000000E+00 0.000000 0 0");
  CHECK(printf_("%f %g %e", {f32(0x3fc00000), f32(0xbfc00000), f32(0x7f7fffff)}) == "1.500000 -1.5 3.402823e+38");
  CHECK(printf_("%f %g", {f32(0x80000000), f32(1)}) == "-0.000000 1.4013e-45");  // -0, the least denormal
  // %F is not in DTrace's table: printed as written, it takes no argument.
  CHECK(printf_("%f %F|%e %G %E", {f32(0x7f800000), f32(0xff800000), f32(0x7fc00000), f64(0xfff0000000000000)}) ==
        "inf %F|-inf NAN -INF");
  CHECK(printf_("%g %.10e %G", {f64(0x3ff0000000000001), f64(0x7fefffffffffffff), f64(0x0000000000000001)}) ==
        "1 1.7976931349e+308 4.94066E-324");
  SECTION("flags, widths and precisions, fixed or from arguments") {
    CHECK(printf_("[%12.3e] [%-10f] [%+f] [% f] [%#g] [%010.2f] [%*.*f]",
                  {f32(0x3fc00000), f64(0xc004000000000000), f32(0x3fc00000), f32(0x3fc00000), f32(0x3fc00000),
                   f64(0xc004000000000000), i32(8), i32(1), f32(0x40490fdb)}) ==
          "[   1.500e+00] [-2.500000 ] [+1.500000] [ 1.500000] [1.50000] [-000002.50] [     3.1]");
  }
}

TEST_CASE("parsing keeps the pieces of a format, and survives any string", "[print][printf]") {
  const auto f = format::parse("a%-*.*lld b%@u%%c");
  REQUIRE(f.pieces().size() == 3);
  CHECK(f.pieces()[0].text == "a");
  const auto& c = *f.pieces()[0].conv;
  CHECK((c.left && c.dynamic_width && c.dynamic_precision));
  CHECK((c.name == "lld" && c.info->letter == 'd' && c.info->sign == 1 && c.text == "%-*.*lld"));
  CHECK(f.pieces()[1].text == " b");
  CHECK((f.pieces()[1].conv->aggregation && f.pieces()[1].conv->name == "u"));
  CHECK(f.pieces()[2].text == "%c");
  CHECK_FALSE(f.pieces()[2].conv);
  CHECK(format::parse("%99999999999999999999d").pieces()[0].conv->width == 2147483647);
  for (const char* s :
       {"%", "%%%", "%*", "%.*", "%hhhhhhhhhhd", "%'#0- +@?*.*", "%\xff", "%.", "%\0d"})
    CHECK_NOTHROW(format::parse(s));
}

TEST_CASE("a format tells the first conversion DTrace refuses, numbered as DTrace numbers them",
          "[print][printf]") {
  const auto why = [](std::string_view fmt) {
    const auto e = format::parse(fmt).error();
    return e ? "#" + std::to_string(e->number) + " " + e->why : std::string("none");
  };
  CHECK(why("%d %s %-*.*lld %@d %%\n") == "none");
  CHECK(why("[%I] [%P] [%d]\n") == "#1 is undefined: %I");
  CHECK(why("%d %P") == "#2 is undefined: %P");
  CHECK(why("%% %hhd") == "#2 is undefined: %hhd");  // %% counts, as in DTrace's messages
  CHECK(why("%zu") == "#1 is undefined: %z");  // z is no size to DTrace
  CHECK(why("%.*.*d") == "#1 has more than one '.' specified");
  CHECK(why("%**d") == "#1 has more than one '*' specified for the output width");
  CHECK(why("%.**d") == "#1 has more than one '*' specified for the output precision");
  CHECK(why("%-%") == "#1 cannot be combined with other format flags: %%");
  CHECK(why("%1$d") == "#1 uses unsupported positional format (%n$)");
  CHECK(why("%d %-") == "#2 name expected before end of format string");
  CHECK(why("%@") == "#1 name expected before end of format string");
}

TEST_CASE("every conversion of the table parses to its own entry", "[print][printf]") {
  for (const auto& entry : dtpp::print::conversion_table) {
    INFO("%" << entry.name);
    const auto f = format::parse("%" + std::string(entry.name));
    REQUIRE(f.pieces().size() == 1);
    REQUIRE(f.pieces()[0].conv);
    CHECK(f.pieces()[0].conv->info == &entry);
    CHECK(f.pieces()[0].conv->name == entry.name);
    CHECK_FALSE(f.error());
  }
}
