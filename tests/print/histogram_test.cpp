// Histograms drawn byte for byte as dtrace(1) draws them (dtrace-utils' aggs tests as reference).
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "dtpp/agg/aggregation.hpp"
#include "dtpp/print/aggregation.hpp"

using namespace dtpp;

namespace {

const std::string header =
    "\n           value  ------------- Distribution ------------- count    \n";

template <class Agg>
std::string histogram_text(const Agg& a) {
  return print::format_aggregation(a.snapshot().data());
}

}  // namespace

TEST_CASE("quantize rounds bar depths half up", "[print][histogram]") {
  // aggs/tst.quantround: counts 2, 6, 19 of 27 draw 3, 9 and 28 '@'.
  aggregation<Quantize> q;
  q.at().add(0, 2);
  q.at().add(1, 6);
  q.at().add(2, 19);
  CHECK(histogram_text(q) == header +
                        "              -1 |                                         0        \n"
                        "               0 |@@@                                      2        \n"
                        "               1 |@@@@@@@@@                                6        \n"
                        "               2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@             19       \n"
                        "               4 |                                         0        \n"
                        "\n");
}

TEST_CASE("quantize shows data that lands only in the top bucket", "[print][histogram]") {
  // aggs/tst.quantlast: labels wider than 16 columns simply overflow.
  aggregation<Quantize> q;
  q.at().add(0x4000000000000000, 1234);
  CHECK(histogram_text(q) == header +
                        "2305843009213693952 |                                         0        \n"
                        "4611686018427387904 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1234     \n"
                        "\n");
}

TEST_CASE("quantize of INT64_MIN shows the bottom bucket", "[print][histogram]") {
  aggregation<Quantize> q;
  q.at().add(std::numeric_limits<std::int64_t>::min());
  CHECK(histogram_text(q) == header +
                        "-4611686018427387904 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
                        "-2305843009213693952 |                                         0        \n"
                        "\n");
}

TEST_CASE("histograms with only negative counts draw left of the bar", "[print][histogram]") {
  // aggs/tst.neglquant, "k-ingleside".
  aggregation<LQuantize, std::string> l(LQuantize(0, 10, 1));
  l.at("k-ingleside").add(1, -123);
  CHECK(histogram_text(l) == "  k-ingleside                                       " + header +
                        "               0                                         | 0        \n"
                        "               1 @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@| -123     \n"
                        "               2                                         | 0        \n"
                        "\n");
}

TEST_CASE("histograms with mixed signs draw half bars around a centre line", "[print][histogram]") {
  // aggs/tst.neglquant, "l-taraval".
  aggregation<LQuantize, std::string> l(LQuantize(0, 10, 1));
  l.at("l-taraval").add(0, -123);
  l.at("l-taraval").add(-1, -123);
  l.at("l-taraval").add(1, 123);
  l.at("l-taraval").add(1, 123);
  CHECK(histogram_text(l) == "  l-taraval                                         " + header +
                        "             < 0                @@@@@|                     -123     \n"
                        "               0                @@@@@|                     -123     \n"
                        "               1                     |@@@@@@@@@@           246      \n"
                        "               2                     |                     0        \n"
                        "\n");
}

TEST_CASE("histograms whose counts cancel out show their first rows", "[print][histogram]") {
  // aggs/tst.neglquant, "j-church": 100 - 99 - 1 = 0.
  aggregation<LQuantize, std::string> l(LQuantize(0, 10, 1));
  l.at("j-church").add(1, 100);
  l.at("j-church").add(1, -99);
  l.at("j-church").add(1, -1);
  CHECK(histogram_text(l) == "  j-church                                          " + header +
                        "             < 0 |                                         0        \n"
                        "               0 |                                         0        \n"
                        "               1 |                                         0        \n"
                        "\n");
  aggregation<Quantize> q;
  q.at().add(5, 1);
  q.at().add(5, -1);
  CHECK(histogram_text(q) == header +
                        "              -1 |                                         0        \n"
                        "               0 |                                         0        \n"
                        "               1 |                                         0        \n"
                        "\n");
  aggregation<LLQuantize> ll(LLQuantize(10, 2, 4, 10));
  ll.at().add(500, 1);
  ll.at().add(500, -1);
  CHECK(histogram_text(ll) == header +
                         "           < 100 |                                         0        \n"
                         "             100 |                                         0        \n"
                         "\n");
}

TEST_CASE("lquantize labels its underflow and overflow rows", "[print][histogram]") {
  aggregation<LQuantize> l(LQuantize(0, 10, 3));
  for (int i = -2; i < 12; ++i) l.at().add(i);
  CHECK(histogram_text(l) == header +
                        "             < 0 |@@@@@@                                   2        \n"
                        "               0 |@@@@@@@@@                                3        \n"
                        "               3 |@@@@@@@@@                                3        \n"
                        "               6 |@@@@@@@@@                                3        \n"
                        "            >= 9 |@@@@@@@@@                                3        \n"
                        "\n");
}

TEST_CASE("llquantize draws illumos's log-linear rows", "[print][histogram]") {
  // illumos llquantize/tst.basic: llquantize(i, 10, 0, 10, 10) for i = 1 .. 101.
  aggregation<LLQuantize> ll(LLQuantize(10, 0, 10, 10));
  for (int i = 1; i <= 101; ++i) ll.at().add(i);
  std::string rows;
  for (int i = 1; i <= 9; ++i)
    rows += std::string(15, ' ') + std::to_string(i) +
            " |                                         1        \n";
  for (int i = 10; i <= 90; i += 10)
    rows += std::string(14, ' ') + std::to_string(i) +
            " |@@@@                                     10       \n";
  CHECK(histogram_text(ll) == header +
                         "             < 1 |                                         0        \n" +
                         rows +
                         "             100 |@                                        2        \n"
                         "             200 |                                         0        \n"
                         "\n");
  aggregation<LLQuantize> big(LLQuantize(10, 0, 2, 10));
  big.at().add(5000);
  CHECK(histogram_text(big) == header +
                          "             900 |                                         0        \n"
                          "         >= 1000 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
                          "\n");
}

TEST_CASE("normalize divides the printed counts, not the bars", "[print][histogram]") {
  aggregation<Quantize> q;
  q.at().add(1, 10);
  q.at().add(2, 30);
  q.normalize(10);
  CHECK(histogram_text(q) == header +
                        "               0 |                                         0        \n"
                        "               1 |@@@@@@@@@@                               1        \n"
                        "               2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@           3        \n"
                        "               4 |                                         0        \n"
                        "\n");
}
