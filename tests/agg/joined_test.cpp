// Joined walks: bundles per key, zero-fill, and DTrace's bundle order.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "dtpp/agg/aggregation.hpp"
#include "dtpp/agg/joined.hpp"

using namespace dtpp;

namespace {

struct stats {
  aggregation<Min, std::string> m;
  aggregation<Max, std::string> M;
  aggregation<Avg, std::string> a;

  std::vector<std::string> walk(const sort_options& options = {}) const {
    std::vector<std::string> out;
    walk_joined([&](std::string_view call, std::int64_t min, std::int64_t max, dtpp::avg avg) {
      out.push_back(std::string(call) + " " + std::to_string(min) + " " + std::to_string(max) +
                    " " + std::to_string(avg.value()));
    }, options, m.snapshot(), M.snapshot(), a.snapshot());
    return out;
  }
};

}  // namespace

TEST_CASE("a joined walk hands the visitor one typed value per aggregation", "[agg][joined]") {
  stats s;
  for (auto [call, lat] : std::vector<std::pair<const char*, int>>{{"read", 10}, {"read", 30}, {"write", 5}}) {
    s.m.at(call).add(lat);
    s.M.at(call).add(lat);
    s.a.at(call).add(lat);
  }
  CHECK(s.walk() == std::vector<std::string>{"write 5 5 5", "read 10 30 20"});
  // aggsortpos=2 orders bundles by the avg() values first.
  CHECK(s.walk({.pos = 2}) == std::vector<std::string>{"write 5 5 5", "read 10 30 20"});
  CHECK(s.walk({.sortkey = true}) == std::vector<std::string>{"read 10 30 20", "write 5 5 5"});
  CHECK(s.walk({.sortrev = true}) == std::vector<std::string>{"read 10 30 20", "write 5 5 5"});
}

TEST_CASE("missing members are zero-filled", "[agg][joined]") {
  stats s;
  s.m.at("only-min").add(7);
  s.a.at("only-avg").add(9);
  s.M.at("only-max").add(-3);
  CHECK(s.walk({.sortkey = true}) ==
        std::vector<std::string>{"only-avg 0 0 9", "only-max 0 -3 0", "only-min 7 0 0"});
}

TEST_CASE("bundles order by the value at aggsortpos, cycling, then by key", "[agg][joined]") {
  // multiaggs/tst.zero: @foo[123]=123, @bar[456]=456, @foo[789]=789, @bar[789]=789.
  aggregation<Sum, int> foo, bar;
  foo.at(123).add(123);
  bar.at(456).add(456);
  foo.at(789).add(789);
  bar.at(789).add(789);
  const auto walk = [&](const sort_options& options) {
    std::vector<std::string> out;
    walk_joined([&](int key, std::int64_t f, std::int64_t b) {
      out.push_back(std::to_string(key) + " " + std::to_string(f) + " " + std::to_string(b));
    }, options, foo.snapshot(), bar.snapshot());
    return out;
  };
  CHECK(walk({}) == std::vector<std::string>{"456 0 456", "123 123 0", "789 789 789"});
  CHECK(walk({.pos = 1}) == std::vector<std::string>{"123 123 0", "456 0 456", "789 789 789"});
  CHECK(walk({.pos = 9}) == walk({}));  // out of range: position 0
  CHECK(walk({.sortrev = true}) == std::vector<std::string>{"789 789 789", "123 123 0", "456 0 456"});
}

TEST_CASE("one aggregation may appear several times in a joined walk", "[agg][joined]") {
  aggregation<Count, std::string> c;
  c.at("x").add();
  c.at("x").add();
  const auto snap = c.snapshot();
  std::vector<std::string> out;
  walk_joined([&](std::string_view k, std::uint64_t a, std::uint64_t b) {
    out.push_back(std::string(k) + " " + std::to_string(a) + " " + std::to_string(b));
  }, {}, snap, snap);
  CHECK(out == std::vector<std::string>{"x 2 2"});
}

TEST_CASE("a joined walk over empty aggregations visits nothing", "[agg][joined]") {
  stats s;
  CHECK(s.walk().empty());
}

TEST_CASE("zero-filled histograms keep the lquantize parameter word", "[agg][joined]") {
  aggregation<Count, int> c;
  aggregation<LQuantize, int> l(LQuantize(-10, 10));
  c.at(1).add();
  std::vector<std::int64_t> lower;
  walk_joined([&](int, std::uint64_t n, const dtpp::histogram& h) {
    CHECK(n == 1);
    CHECK(h.size() == 22);
    lower.push_back(h[1].lower);
  }, {}, c.snapshot(), l.snapshot());
  CHECK(lower == std::vector<std::int64_t>{-10});
}
