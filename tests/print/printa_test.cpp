// printa() with a format: keys by conversion, %@ values (repeated, omitted, zero-filled),
// histograms whole. Expected text is taken from dtrace-utils' test/unittest/printa and multiaggs
// expectations (each printa call there prints one tuple here).
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "dtpp/agg/functions.hpp"
#include "dtpp/print/format.hpp"
#include "time_zone.hpp"

using namespace dtpp;
using print::aggregated;
using print::format;
using print::traced;

namespace {

// An aggregation's value with the words it owns.
struct value {
  agg::function fn;
  std::vector<std::uint64_t> words;
  std::uint64_t normal = 1;
};

template <class Fn>
value of(const Fn& fn, std::initializer_list<std::int64_t> xs, std::int64_t incr = 1) {
  value v{agg::function::of(fn), std::vector<std::uint64_t>(fn.words()), 1};
  fn.init(v.words.data());
  for (const auto x : xs) fn.add(v.words.data(), x, incr);
  return v;
}

// A member missing from a joined bundle: all words zero (the lquantize parameter word too).
template <class Fn>
value zero(const Fn& fn) {
  return {agg::function::of(fn), std::vector<std::uint64_t>(fn.words(), 0), 1};
}

std::string printa(std::string_view fmt, std::initializer_list<traced> keys,
                   std::initializer_list<value> values) {
  std::vector<aggregated> views;
  for (const auto& v : values) views.push_back({v.fn, v.words, v.normal});
  const std::vector<traced> k(keys);
  std::string text;
  print::print_printa(text, format::parse(fmt), k, views);
  return text;
}

traced i32(std::int64_t v) { return traced::integer(v, 4, true); }

}  // namespace

TEST_CASE("printa prints each function's value as DTrace's basics test shows", "[print][printa]") {
  // printa/tst.basics.d, but for @h: its llquantize(320, 10, 0, 5, 5, 8) has fewer steps than
  // its factor, which illumos (and dtpp: docs/design.md, decision 9) rejects; dtpp's @h has 10 steps.
  std::string text;
  text += printa("@a = %@u\n", {}, {of(Avg{}, {1})});
  text += printa("@b = %@u\n", {}, {of(Count{}, {0})});
  text += printa("@c = %@d\n", {}, {of(LQuantize(1, 10), {1})});
  text += printa("@d = %@u\n", {}, {of(Max{}, {1})});
  text += printa("@e = %@u\n", {}, {of(Min{}, {1})});
  text += printa("@f = %@u\n", {}, {of(Sum{}, {1})});
  text += printa("@g = %@d\n", {}, {of(Quantize{}, {1})});
  text += printa("@h = %@d\n", {}, {of(LLQuantize(10, 0, 5, 10), {320}, 8)});
  text += printa("@i = %@d\n", {}, {of(StdDev{}, {10, 20})});
  CHECK(text ==
        "@a = 1\n"
        "@b = 1\n"
        "@c = \n"
        "           value  ------------- Distribution ------------- count    \n"
        "             < 1 |                                         0        \n"
        "               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
        "               2 |                                         0        \n"
        "\n"
        "@d = 1\n"
        "@e = 1\n"
        "@f = 1\n"
        "@g = \n"
        "           value  ------------- Distribution ------------- count    \n"
        "               0 |                                         0        \n"
        "               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
        "               2 |                                         0        \n"
        "\n"
        "@h = \n"
        "           value  ------------- Distribution ------------- count    \n"
        "             200 |                                         0        \n"
        "             300 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 8        \n"
        "             400 |                                         0        \n"
        "\n"
        "@i = 5\n");
}

TEST_CASE("printa's %@ conversions take the aggregations in order, repeating the last",
          "[print][printa]") {
  // printa/tst.fmt, tst.manyval, multiaggs/tst.same.
  CHECK(printa("%@u", {}, {of(Count{}, {0})}) == "1");
  CHECK(printa("%@u %@u %@u %@u %@u %@u %@u\n", {}, {of(Count{}, {0})}) == "1 1 1 1 1 1 1\n");
  const auto s = of(Sum{}, {90904});
  CHECK(printa("%@d %@d %@d\n", {}, {s, s, s}) == "90904 90904 90904\n");
  CHECK(printa("%@d %@d %@d\n", {}, {s}) == "90904 90904 90904\n");
  SECTION("fewer %@ than aggregations leave the rest out") {
    CHECK(printa("%@d\n", {}, {of(Sum{}, {1}), of(Sum{}, {2})}) == "1\n");
  }
  SECTION("a format without conversions prints its text once") {
    CHECK(printa("hello\n", {i32(1)}, {of(Count{}, {0})}) == "hello\n");
  }
}

TEST_CASE("printa's key conversions take the keys in order, * widths included", "[print][printa]") {
  // printa/tst.tuple: @a[1, 2, 3, 4, 5] = count().
  const auto c = of(Count{}, {0});
  const std::initializer_list<traced> keys = {i32(1), i32(2), i32(3), i32(4), i32(5)};
  std::string text = "\n";
  for (const char* f : {"%@u: -\n", "%@u: %d\n", "%@u: %d %d\n", "%@u: %d %d %d\n",
                        "%@u: %d %d %d %d\n", "%@u: %d %d %d %d %d\n"})
    text += printa(f, keys, {c});
  CHECK(text == "\n1: -\n1: 1\n1: 1 2\n1: 1 2 3\n1: 1 2 3 4\n1: 1 2 3 4 5\n");

  // printa/tst.dynwidth: @[10, 100] = sum(1); @[-10, 200] = sum(2).
  const auto one = of(Sum{}, {1}), two = of(Sum{}, {2});
  text.clear();
  text += printa("-->%-*d<--\n", {i32(10), i32(100)}, {one});
  text += printa("-->%-*d<--\n", {i32(-10), i32(200)}, {two});
  text += printa("-->%*d<--\n", {i32(10), i32(100)}, {one});
  text += printa("-->%*d<--\n", {i32(-10), i32(200)}, {two});
  CHECK(text ==
        "-->100       <--\n-->200       <--\n"
        "-->       100<--\n-->200       <--\n");

  SECTION("string keys and widths on values") {
    CHECK(printa("%-10s %@8d\n", {traced::string("read")}, {of(Count{}, {0, 0})}) ==
          "read              2\n");
    CHECK(printa("[%@-5d]", {}, {of(Sum{}, {7})}) == "[7    ]");
    CHECK(printa("[%@*d]", {i32(4)}, {of(Sum{}, {7})}) == "[   7]");
  }
}

TEST_CASE("printa prints zero-filled members of a joined bundle as zeros and empty histograms",
          "[print][printa]") {
  // multiaggs/tst.zero: @foo[123] = sum(123), @bar[456] = sum(456), both [789] = sum(789); @bop
  // (quantize) and @baz (lquantize(-10, 10, 1)) have no tuples. Bundles in the .r's order.
  const auto bop = zero(Quantize{});
  const auto baz = zero(LQuantize(-10, 10, 1));
  const auto foo = [](std::int64_t k) { return k == 456 ? zero(Sum{}) : of(Sum{}, {k}); };
  const auto bar = [](std::int64_t k) { return k == 123 ? zero(Sum{}) : of(Sum{}, {k}); };
  std::string text;
  for (const std::int64_t k : {456, 123, 789})
    text += printa("%10d %@10d %@10d\n", {i32(k)}, {foo(k), bar(k)});
  for (const std::int64_t k : {456, 123, 789})
    text += printa("%10d %@10d %@10d %@10d\n", {i32(k)}, {foo(k), bar(k), bop});
  for (const std::int64_t k : {456, 123, 789})
    text += printa("%10d %@10d %@10d %@10d %@10d\n", {i32(k)}, {foo(k), bar(k), bop, baz});
  CHECK(text ==
        "       456          0        456\n"
        "       123        123          0\n"
        "       789        789        789\n"
        "       456          0        456 \n"
        "           value  ------------- Distribution ------------- count    \n"
        "              -1 |                                         0        \n"
        "               0 |                                         0        \n"
        "               1 |                                         0        \n"
        "\n"
        "       123        123          0 \n"
        "           value  ------------- Distribution ------------- count    \n"
        "              -1 |                                         0        \n"
        "               0 |                                         0        \n"
        "               1 |                                         0        \n"
        "\n"
        "       789        789        789 \n"
        "           value  ------------- Distribution ------------- count    \n"
        "              -1 |                                         0        \n"
        "               0 |                                         0        \n"
        "               1 |                                         0        \n"
        "\n"
        "       456          0        456 \n"
        "           value  ------------- Distribution ------------- count    \n"
        "              -1 |                                         0        \n"
        "               0 |                                         0        \n"
        "               1 |                                         0        \n"
        " \n"
        "           value  ------------- Distribution ------------- count    \n"
        "           < -10 |                                         0        \n"
        "             -10 |                                         0        \n"
        "              -9 |                                         0        \n"
        "\n"
        "       123        123          0 \n"
        "           value  ------------- Distribution ------------- count    \n"
        "              -1 |                                         0        \n"
        "               0 |                                         0        \n"
        "               1 |                                         0        \n"
        " \n"
        "           value  ------------- Distribution ------------- count    \n"
        "           < -10 |                                         0        \n"
        "             -10 |                                         0        \n"
        "              -9 |                                         0        \n"
        "\n"
        "       789        789        789 \n"
        "           value  ------------- Distribution ------------- count    \n"
        "              -1 |                                         0        \n"
        "               0 |                                         0        \n"
        "               1 |                                         0        \n"
        " \n"
        "           value  ------------- Distribution ------------- count    \n"
        "           < -10 |                                         0        \n"
        "             -10 |                                         0        \n"
        "              -9 |                                         0        \n"
        "\n");

  SECTION("an empty word span counts as zero-filled too") {
    std::vector<aggregated> views = {{agg::function::of(Count{}), {}, 1},
                                     {agg::function::of(Avg{}), {}, 1},
                                     {agg::function::of(StdDev{}), {}, 1},
                                     {agg::function::of(Min{}), {}, 1}};
    std::string t;
    print::print_printa(t, format::parse("%@d %@d %@d %@d"), {}, views);
    CHECK(t == "0 0 0 0");
  }
}

TEST_CASE("printa over many aggregations prints as DTrace's many test shows", "[print][printa]") {
  // multiaggs/tst.many: @aggN[N] = sum(N); @agg996 (quantize), @agg997 (count), @agg998 (min)
  // and @agg999 (lquantize(0, -10, 10, 1)) never get a tuple. printf("\n") between the calls.
  const auto sum = [](std::int64_t n) { return of(Sum{}, {n}); };
  const auto none = zero(Sum{});
  std::string text;
  const char* two = "%8d %8@d %8@d\n";
  text += printa(two, {i32(0)}, {sum(0), none});
  text += printa(two, {i32(1)}, {none, sum(1)});
  text += "\n";
  text += printa(two, {i32(0)}, {sum(0), zero(Quantize{})});
  text += "\n";
  const char* eleven = "%4d %4@d %4@d %4@d %4@d %4@d %4@d %4@d %4@d %4@d %4@d %4@d\n";
  // Arguments: @agg12, @agg3, @agg73, @agg997, @agg9, @agg9, @agg4, @agg998, @agg11, @agg23,
  // @agg69.
  const auto count = zero(Count{}), min = zero(Min{});
  for (const std::int64_t k : {69, 23, 11, 4, 9, 73, 3, 12}) {
    const auto member = [&](std::int64_t n) { return n == k ? sum(n) : none; };
    text += printa(eleven, {i32(k)},
                   {member(12), member(3), member(73), count, member(9), member(9), member(4), min,
                    member(11), member(23), member(69)});
  }
  text += "\n";
  text += printa(two, {i32(246)}, {none, sum(246)});
  text += printa(two, {i32(245)}, {sum(245), none});
  text += "\n";
  text += printa(two, {i32(246)}, {zero(LQuantize(-10, 10, 1)), sum(246)});
  text += "\n";
  CHECK(text ==
        "       0        0        0\n"
        "       1        0        1\n"
        "\n"
        "       0        0 \n"
        "           value  ------------- Distribution ------------- count    \n"
        "              -1 |                                         0        \n"
        "               0 |                                         0        \n"
        "               1 |                                         0        \n"
        "\n"
        "\n"
        "  69    0    0    0    0    0    0    0    0    0    0   69\n"
        "  23    0    0    0    0    0    0    0    0    0   23    0\n"
        "  11    0    0    0    0    0    0    0    0   11    0    0\n"
        "   4    0    0    0    0    0    0    4    0    0    0    0\n"
        "   9    0    0    0    0    9    9    0    0    0    0    0\n"
        "  73    0    0   73    0    0    0    0    0    0    0    0\n"
        "   3    0    3    0    0    0    0    0    0    0    0    0\n"
        "  12   12    0    0    0    0    0    0    0    0    0    0\n"
        "\n"
        "     246        0      246\n"
        "     245      245        0\n"
        "\n"
        "     246 \n"
        "           value  ------------- Distribution ------------- count    \n"
        "           < -10 |                                         0        \n"
        "             -10 |                                         0        \n"
        "              -9 |                                         0        \n"
        "      246\n"
        "\n");
}

TEST_CASE("printa's %@ prints count unsigned, the others signed and normalized", "[print][printa]") {
  constexpr auto top = std::numeric_limits<std::uint64_t>::max();
  value count{agg::function::of(Count{}), {top}, 1};
  CHECK(printa("%@d %@i %@x", {}, {count}) ==
        "18446744073709551615 18446744073709551615 ffffffffffffffff");
  const auto minus = of(Sum{}, {-1});
  CHECK(printa("%@d %@u %@x", {}, {minus}) == "-1 18446744073709551615 ffffffffffffffff");
  SECTION("avg divides signed (a documented difference: DTrace divides unsigned here)") {
    CHECK(printa("%@d", {}, {of(Avg{}, {0, -900})}) == "-450");
    CHECK(printa("%@d", {}, {of(Avg{}, {})}) == "0");
  }
  SECTION("normalize() divides sum, min, max, avg and stddev") {
    auto s = of(Sum{}, {1000});
    auto a = of(Avg{}, {100, 300});
    auto d = of(StdDev{}, {10, 20, 30, 40, 50});
    auto m = of(Min{}, {-1000});
    s.normal = a.normal = m.normal = 10;
    CHECK(printa("%@d %@d %@d %@d", {}, {s, a, d, m}) == "100 20 14 -100");
    d.normal = 10;  // sum 15, squares 5500 / 100 / 5 = 11: isqrt(11 - 9) = 1
    CHECK(printa("%@d", {}, {d}) == "1");
    s.normal = 0;  // never divides by zero
    CHECK(printa("%@d", {}, {s}) == "1000");
  }
  SECTION("min and max of no values print their initial extremes") {
    CHECK(printa("%@d %@d", {}, {of(Min{}, {}), of(Max{}, {})}) ==
          "9223372036854775807 -9223372036854775808");
  }
}

TEST_CASE("printa's %@Y and %@T print an aggregated time", "[print][printa]") {
  // printa/tst.walltimestamp.sh (TZ=US/Pacific): @foo = min(1075064400 * 1000000000).
  const time_zone us(time_zone::us_pacific);
  const auto foo = of(Min{}, {1075064400LL * 1000000000LL});
  const std::string text = printa("%@T\n", {}, {foo}) + printa("%@Y\n", {}, {foo});
  CHECK(text == "Sun, 25 Jan 2004 13:00:00 PST\n2004 Jan 25 13:00:00\n");
}
