// The run-time form: D-shaped keys, DTrace's record order, and checked typed views.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/dynamic_aggregation.hpp"

using namespace dtpp;
using agg::key_type;
using agg::record;

namespace {

const key_type int32{key_type::category::integer, 4, true};
const key_type int64{key_type::category::integer, 8, true};
const key_type uint16{key_type::category::integer, 2, false};

agg::dynamic_key key_of(std::string name) { return {{record::of_string(std::move(name))}}; }

agg::dynamic_table stddev_table() {
  agg::dynamic_table t({7, "c", agg::function::of(StdDev{}), {{key_type::category::string, 256, false}}});
  const StdDev fn;
  const std::pair<const char*, std::vector<int>> samples[] = {
      {"foo", {1, 2, 3, 4, 5}}, {"bar", {6, 8, 10, 12, 14}}, {"baz", {17, 20, 23, 26, 29}}};
  for (const auto& [name, values] : samples) {
    const auto row = t.add_row(key_of(name));
    for (int v : values) fn.add(t.words(row).data(), v, 1);
  }
  return t;
}

}  // namespace

TEST_CASE("a typed view decodes a run-time table it matches", "[agg][dynamic]") {
  const auto t = stddev_table();
  const auto view = agg::typed_view<StdDev, std::string>(t);
  std::vector<std::string> rows;
  view.walk(order::keysorted, [&](std::string_view name, const dtpp::stddev& s) {
    rows.push_back(std::string(name) + " " + std::to_string(s.count) + " " + std::to_string(s.value()));
  });
  CHECK(rows == std::vector<std::string>{"bar 5 2", "baz 5 4", "foo 5 1"});
  CHECK(view.data().desc().varid == 7);
}

TEST_CASE("a typed view of the wrong function or keys is a clear error", "[agg][dynamic]") {
  const auto t = stddev_table();
  CHECK_THROWS_WITH((agg::typed_view<Count, std::string>(t)),
                    "dtpp: @c holds stddev() values, not count()");
  CHECK_THROWS_WITH((agg::typed_view<StdDev, int>(t)), "dtpp: key #1 of @c is string, not int32");
  CHECK_THROWS_WITH((agg::typed_view<StdDev, std::string, int>(t)), "dtpp: @c has 1 keys, not 2");

  agg::dynamic_table ints({1, "n", agg::function::of(Sum{}), {int32, uint16}});
  CHECK_THROWS_WITH((agg::typed_view<Sum, std::int64_t, std::uint16_t>(ints)),
                    "dtpp: key #1 of @n is int32, not int64");
  CHECK_THROWS_WITH((agg::typed_view<Sum, std::int32_t, std::int16_t>(ints)),
                    "dtpp: key #2 of @n is uint16, not int16");
  CHECK_NOTHROW((agg::typed_view<Sum, std::int32_t, std::uint16_t>(ints)));
}

TEST_CASE("typed views carry lquantize parameters from the descriptor", "[agg][dynamic]") {
  const LQuantize fn(0, 100, 10);
  agg::dynamic_table t({2, "l", agg::function::of(fn), {int64}});
  const auto row = t.add_row({{record::of_integer(int64, static_cast<std::uint64_t>(-1))}});
  fn.add(t.words(row).data(), 55, 3);
  const auto view = agg::typed_view<LQuantize, std::int64_t>(t);
  CHECK(view.function().params == fn.params);
  CHECK(view.key(0) == -1);
  CHECK(view.value(0)[6] == dtpp::bucket{50, 59, 3});
}

TEST_CASE("run-time keys order by record count, record size, then value", "[agg][dynamic]") {
  using traits = agg::key_traits<agg::dynamic_key>;
  const agg::dynamic_key small{{record::of_integer(int32, 5)}};
  const agg::dynamic_key wide{{record::of_integer(int64, 1)}};
  const agg::dynamic_key two{{record::of_integer(int32, 0), record::of_integer(int32, 0)}};
  const agg::dynamic_key minus_one{{record::of_integer(int32, 0xffffffff)}};
  CHECK(traits::compare(small, wide) < 0);       // 4-byte record before 8-byte
  CHECK(traits::compare(wide, two) < 0);         // fewer records first
  CHECK(traits::compare(small, minus_one) < 0);  // unsigned: -1 is the largest
  CHECK(traits::compare(key_of("London"), key_of("Londonderry")) < 0);
  CHECK(traits::compare(key_of("b"), key_of("a")) > 0);
  CHECK(traits::compare(small, small) == 0);
  CHECK(traits::hash(key_of("x")) == traits::hash(key_of("x")));
}

TEST_CASE("a size limit keeps each thread's keys within it and counts the updates it drops",
          "[agg][dynamic]") {
  // count() with one int64 key: 8 bytes of key, a generation word and a count word; 48 bytes hold
  // two keys a thread.
  agg::dynamic_aggregation a({1, "", agg::function::of(Count{}), {int64}});
  a.limit_bytes(48);
  const auto add = [&](std::uint64_t k) { a.add({{record::of_integer(int64, k)}}, 0); };
  const auto counts = [&] {
    std::vector<std::string> rows;
    const auto t = a.snapshot();
    for (std::size_t row = 0; row < t.size(); ++row)
      rows.push_back(std::to_string(t.key(row).records[0].integer) + ":" + std::to_string(t.words(row)[0]));
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  add(1);
  add(2);
  add(3);  // no room: dropped, and again each time it comes back
  add(1);
  add(3);
  CHECK(a.drops() == 2);
  CHECK(counts() == std::vector<std::string>{"1:2", "2:1"});
  // Another thread has room of its own, as each CPU has its own buffer in DTrace.
  std::thread([&] {
    add(3);
    add(4);
    add(5);
  }).join();
  CHECK(a.drops() == 3);
  CHECK(counts() == std::vector<std::string>{"1:2", "2:1", "3:1", "4:1"});
  // A clear keeps the keys and their room.
  a.clear();
  add(5);
  CHECK(a.drops() == 4);
  CHECK(counts() == std::vector<std::string>{"1:0", "2:0", "3:0", "4:0"});
}

TEST_CASE("without a size limit an aggregation takes every key", "[agg][dynamic]") {
  agg::dynamic_aggregation a({1, "", agg::function::of(Count{}), {int64}});
  for (std::uint64_t k = 0; k < 10000; ++k) a.add({{record::of_integer(int64, k)}}, 0);
  CHECK(a.drops() == 0);
  CHECK(a.snapshot().size() == 10000);
}
