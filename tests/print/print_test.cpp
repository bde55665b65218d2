// dtrace(1)'s one-line-per-tuple output: key widths by type, values, aggpercpu, printa joins.
#include <catch2/catch.hpp>
#include <cstdint>
#include <latch>
#include <limits>
#include <string>
#include <thread>

#include "dtpp/agg/aggregation.hpp"
#include "dtpp/agg/dynamic.hpp"
#include "dtpp/print/aggregation.hpp"

using namespace dtpp;

namespace {
template <class Agg>
std::string aggregation_text(const Agg& a, order o = order::sorted, const print::print_options& options = {}) {
  return print::format_aggregation(a.snapshot().data(), o, options);
}
}  // namespace

TEST_CASE("a keyless value prints as 17 columns", "[print][print]") {
  aggregation<Count> c;
  for (int i = 0; i < 10; ++i) c.at().add();
  CHECK(aggregation_text(c) == "               10\n");
  aggregation<Sum> s;
  s.at().add(std::numeric_limits<std::int64_t>::min());
  CHECK(aggregation_text(s) == " -9223372036854775808\n");
}

TEST_CASE("integer keys print by size, 1 and 2 bytes unsigned", "[print][print]") {
  // aggs/tst.signedkeys with aggsortkey.
  aggregation<Sum, signed char> b;
  aggregation<Sum, short> h;
  aggregation<Sum, int> i;
  aggregation<Sum, long long> l;
  for (int k : {-2, -1, 0, 1, 2}) {
    b.at(static_cast<signed char>(k)).add(k);
    h.at(static_cast<short>(k)).add(k);
    i.at(k).add(k);
    l.at(static_cast<long long>(k)).add(k);
  }
  const print::print_options by_key{.sort = {.sortkey = true}};
  CHECK(aggregation_text(b, order::sorted, by_key) ==
        "   0                0\n   1                1\n   2                2\n"
        " 254               -2\n 255               -1\n");
  CHECK(aggregation_text(h, order::sorted, by_key) ==
        "     0                0\n     1                1\n     2                2\n"
        " 65534               -2\n 65535               -1\n");
  CHECK(aggregation_text(i, order::sorted, by_key) ==
        "        0                0\n        1                1\n        2                2\n"
        "       -2               -2\n       -1               -1\n");
  CHECK(aggregation_text(l, order::sorted, by_key) ==
        "                0                0\n                1                1\n"
        "                2                2\n               -2               -2\n"
        "               -1               -1\n");
}

TEST_CASE("string keys print left-justified in 50 columns", "[print][print]") {
  aggregation<Count, std::string> c;
  c.at("dtrace").add();
  CHECK(aggregation_text(c) == "  dtrace                                                            1\n");
  aggregation<Count, int, std::string> rice;
  rice.at(8, "Rice").add();
  CHECK(aggregation_text(rice) ==
        "        8  Rice                                                              1\n");
  aggregation<Count, std::string> longer;
  const std::string name(60, 'n');
  longer.at(name).add();
  CHECK(aggregation_text(longer) == "  " + name + "                1\n");
}

TEST_CASE("strings that are not text print as a hex dump", "[print][print]") {
  aggregation<Count, std::string> c;
  c.at(std::string("a\x01z", 3)).add();
  const print::print_options small{.sort = {}, .strsize = 20};
  CHECK(aggregation_text(c, order::sorted, small) ==
        "\n"
        "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
        "         0: 61 01 7a 00 00 00 00 00 00 00 00 00 00 00 00 00  a.z.............\n"
        "        10: 00 00 00 00                                      ....\n"
        "                1\n");
  aggregation<Count, std::string> empty;
  empty.at("").add();
  const print::print_options tiny{.sort = {}, .strsize = 4};
  CHECK(aggregation_text(empty, order::sorted, tiny) ==
        "\n"
        "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
        "         0: 00 00 00 00                                      ....\n"
        "                1\n");
}

TEST_CASE("avg prints the signed integer average", "[print][print]") {
  aggregation<Avg> a;
  a.at().add(0);
  a.at().add(-900);
  CHECK(aggregation_text(a) == "             -450\n");
  aggregation<Avg, int> none;
  none.at(1).add(5);
  none.clear();
  CHECK(aggregation_text(none) == "        1                0\n");
}

TEST_CASE("stddev prints DTrace's integer standard deviation", "[print][print]") {
  // aggs/tst.stddev.
  aggregation<StdDev> a, b;
  for (std::int64_t i = 0; i < 10; ++i) {
    a.at().add(5000000000 + 100 * i);
    b.at().add(-5000000000 - 100 * i);
  }
  CHECK(aggregation_text(a) == "              287\n");
  CHECK(aggregation_text(b) == "              287\n");
}

TEST_CASE("normalize divides values, signed", "[print][print]") {
  aggregation<Sum, std::string> s;
  s.at("neg").add(-3000);
  s.at("pos").add(4000);
  s.normalize(1000);
  CHECK(aggregation_text(s) ==
        "  neg                                                              -3\n"
        "  pos                                                               4\n");
  aggregation<Avg> a;
  a.at().add(-3000);
  a.normalize(1000);
  CHECK(aggregation_text(a) == "               -3\n");
}

TEST_CASE("aggpercpu adds a line per shard after each value", "[print][print]") {
  aggregation<Count, std::string> c;
  std::latch both(2);
  auto work = [&](int n) {
    for (int i = 0; i < n; ++i) c.at("x").add();
    both.arrive_and_wait();
  };
  std::thread t1(work, 4), t2(work, 6);
  t1.join();
  t2.join();
  const auto text = aggregation_text(c, order::sorted, {.sort = {}, .percpu = true});
  const std::string prefix = "  x                                                                10";
  REQUIRE(text.size() > prefix.size());
  CHECK(text.substr(0, prefix.size()) == prefix);
  const bool first_four = text.substr(prefix.size()) ==
                          "\n    [CPU 0]                4\n    [CPU 1]                6\n";
  const bool first_six = text.substr(prefix.size()) ==
                         "\n    [CPU 0]                6\n    [CPU 1]                4\n";
  CHECK((first_four || first_six));
}

TEST_CASE("several aggregations print one after another by variable id", "[print][print]") {
  aggregation<Count, std::string> calls;
  aggregation<Sum, std::string> bytes;
  calls.at("read").add();
  bytes.at("read").add(100);
  bytes.at("write").add(5);
  const auto c = calls.snapshot();
  const auto b = bytes.snapshot();
  const agg::table<std::string>* tables[] = {&b.data(), &c.data()};
  std::string text;
  print::print_aggregations<std::string>(text, tables);
  CHECK(text ==
        "  read                                                              1\n"
        "  write                                                             5\n"
        "  read                                                            100\n");
}

TEST_CASE("printa of several aggregations prints joined rows with zero-fill", "[print][print]") {
  // multiaggs/tst.zero, default format: key, then each value.
  aggregation<Sum, int> foo, bar;
  aggregation<Quantize, int> bop;
  foo.at(123).add(123);
  bar.at(456).add(456);
  foo.at(789).add(789);
  bar.at(789).add(789);
  const auto f = foo.snapshot(), b = bar.snapshot();
  const auto q = bop.snapshot();
  const agg::table<int>* two[] = {&f.data(), &b.data()};
  std::string text;
  print::print_joined<int>(text, two);
  CHECK(text ==
        "      456                0              456\n"
        "      123              123                0\n"
        "      789              789              789\n");
  const agg::table<int>* three[] = {&f.data(), &b.data(), &q.data()};
  text.clear();
  print::print_joined<int>(text, three);
  CHECK(text.substr(0, 43) == "      456                0              456");
  CHECK(text.substr(43, 70) ==
        "\n           value  ------------- Distribution ------------- count    \n");
  const agg::table<int>* nothing[] = {&q.data()};
  text.clear();
  print::print_joined<int>(text, nothing);
  CHECK(text.empty());
}

TEST_CASE("run-time tables print their records by type", "[print][print]") {
  using agg::key_type;
  using agg::record;
  const key_type u8{key_type::category::integer, 1, false};
  agg::dynamic_table t({1, "", agg::function::of(Count{}),
                        {u8, {key_type::category::string, 8, false}}});
  const Count fn;
  const auto row = t.add_row({{record::of_integer(u8, 0xfe), record::of_string("ab", 8)}});
  fn.add(t.words(row).data(), 0, 1);
  CHECK(print::format_aggregation(t) ==
        " 254  ab                                                                1\n");
}
