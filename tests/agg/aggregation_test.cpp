// dtpp::aggregation: typed keys, lock-free updates from many threads, snapshots and the
// consumer-side operations clear, trunc, normalize and denormalize.
#include <catch2/catch.hpp>
#include <atomic>
#include <boost/hana/define_struct.hpp>
#include <cstdint>
#include <latch>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "dtpp/agg/aggregation.hpp"

using namespace dtpp;

namespace {

struct call_site {
  BOOST_HANA_DEFINE_STRUCT(call_site, (std::string, file), (std::uint32_t, line));
};

// Reads a snapshot into an ordered map for exact comparisons.
template <class Fn, class Key>
std::map<Key, typename Fn::value_type> contents(const agg::snapshot<Fn, Key>& snap) {
  std::map<Key, typename Fn::value_type> out;
  for (std::size_t i = 0; i < snap.size(); ++i) out.emplace(snap.key(i), snap.value(i));
  return out;
}

}  // namespace

TEST_CASE("an aggregation without keys holds one value", "[agg][aggregation]") {
  aggregation<Sum> total;
  CHECK(total.snapshot().empty());
  total.at().add(5);
  total.at().add(-2);
  const auto snap = total.snapshot();
  REQUIRE(snap.size() == 1);
  CHECK(snap.value(0) == 3);
}

TEST_CASE("integer, string and tuple keys keep their values apart", "[agg][aggregation]") {
  aggregation<Count, std::string> by_name;
  by_name.at("read").add();
  by_name.at(std::string("read")).add();
  by_name.at(std::string_view("write")).add();
  by_name.at("").add();
  const std::string long_name(300, 'x');
  by_name.at(long_name).add();
  CHECK(contents(by_name.snapshot()) ==
        std::map<std::string, std::uint64_t>{{"", 1}, {"read", 2}, {"write", 1}, {long_name, 1}});

  aggregation<Max, std::int8_t, std::string, std::uint64_t> mixed;
  mixed.at(std::int8_t{-1}, "a", std::uint64_t{1}).add(7);
  mixed.at(std::int8_t{-1}, "a", std::uint64_t{2}).add(8);
  mixed.at(std::int8_t{-1}, "a", std::uint64_t{1}).add(3);
  using key = std::tuple<std::int8_t, std::string, std::uint64_t>;
  CHECK(contents(mixed.snapshot()) ==
        std::map<key, std::int64_t>{{key{-1, "a", 1}, 7}, {key{-1, "a", 2}, 8}});
}

TEST_CASE("a Hana struct is a key", "[agg][aggregation][hana]") {
  aggregation<Avg, call_site> latency;
  latency.at(call_site{"a.cpp", 10}).add(10);
  latency.at(call_site{"a.cpp", 10}).add(20);
  latency.at(call_site{"a.cpp", 11}).add(5);
  const auto snap = latency.snapshot();
  REQUIRE(snap.size() == 2);
  std::vector<std::string> seen;
  snap.walk(order::keysorted, [&](const call_site& site, const dtpp::avg& a) {
    seen.push_back(site.file + ":" + std::to_string(site.line) + "=" + std::to_string(a.value()));
  });
  CHECK(seen == std::vector<std::string>{"a.cpp:10=15", "a.cpp:11=5"});
  CHECK(latency.descriptor().keys ==
        std::vector<agg::key_type>{{agg::key_type::category::string, 0, false},
                                   {agg::key_type::category::integer, 4, false}});
}

TEST_CASE("many keys survive the shard's growth", "[agg][aggregation]") {
  aggregation<Sum, std::uint32_t> sums;
  constexpr std::uint32_t keys = 100000;
  for (int round = 0; round < 3; ++round)
    for (std::uint32_t k = 0; k < keys; ++k) sums.at(k).add(k);
  const auto snap = sums.snapshot();
  REQUIRE(snap.size() == keys);
  bool all_right = true;
  for (std::size_t i = 0; i < snap.size(); ++i)
    all_right = all_right && snap.value(i) == 3 * static_cast<std::int64_t>(snap.key(i));
  CHECK(all_right);
}

TEST_CASE("threads update without locks and a snapshot merges their shards", "[agg][aggregation][threads]") {
  aggregation<Count, std::string> calls;
  aggregation<Min, int> low;
  aggregation<Max, int> high;
  constexpr int threads = 4, per_thread = 50000;
  // Threads that exit hand their shard to the next new thread; the latch keeps all four alive
  // together so that each writes a shard of its own.
  std::latch all_done(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        calls.at(i % 2 ? "odd" : "even").add();
        low.at(i % 3).add(t * 1000 - i);
        high.at(i % 3).add(t * 1000 + i);
      }
      all_done.arrive_and_wait();
    });
  for (auto& t : pool) t.join();

  const auto snap = calls.snapshot();
  CHECK(contents(snap) == std::map<std::string, std::uint64_t>{{"even", threads * per_thread / 2},
                                                                {"odd", threads * per_thread / 2}});
  // Each thread's part is kept: the in-process aggpercpu.
  REQUIRE(snap.shards() == threads);
  for (std::size_t row = 0; row < snap.size(); ++row)
    for (std::size_t s = 0; s < snap.shards(); ++s) CHECK(snap.shard_value(row, s) == per_thread / 2);

  CHECK(contents(low.snapshot()) ==
        std::map<int, std::int64_t>{{0, -(per_thread - 2)}, {1, -(per_thread - 1)}, {2, -(per_thread - 3)}});
  CHECK(contents(high.snapshot()) ==
        std::map<int, std::int64_t>{{0, 3000 + per_thread - 2}, {1, 3000 + per_thread - 1}, {2, 3000 + per_thread - 3}});
}

TEST_CASE("a snapshot taken while threads update sees whole rows", "[agg][aggregation][threads]") {
  aggregation<Count, std::uint64_t> counts;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    std::uint64_t k = 0;
    while (!stop.load()) counts.at(k++ % 5000).add();
  });
  std::size_t last = 0;
  for (int i = 0; i < 50; ++i) {
    const auto snap = counts.snapshot();
    CHECK(snap.size() >= last);
    last = snap.size();
    for (std::size_t r = 0; r < snap.size(); ++r) CHECK(snap.value(r) >= 1);
  }
  stop = true;
  writer.join();
}

TEST_CASE("clear keeps keys and restarts values from the initial value", "[agg][aggregation][clear]") {
  aggregation<Min, std::string> lows;
  lows.at("a").add(5);
  lows.at("b").add(-5);
  lows.clear();
  auto snap = lows.snapshot();
  CHECK(contents(snap) == std::map<std::string, std::int64_t>{
                              {"a", std::numeric_limits<std::int64_t>::max()},
                              {"b", std::numeric_limits<std::int64_t>::max()}});
  lows.at("a").add(9);  // not 5: the old minimum is gone
  CHECK(contents(lows.snapshot()) == std::map<std::string, std::int64_t>{
                                         {"a", 9}, {"b", std::numeric_limits<std::int64_t>::max()}});

  aggregation<LQuantize> hist(LQuantize(0, 10));
  hist.at().add(3);
  hist.clear();
  const auto cleared = hist.snapshot();
  REQUIRE(cleared.size() == 1);
  CHECK(cleared.data().words(0)[0] == LQuantize(0, 10).param());  // the parameter word stays
  for (const auto& b : cleared.value(0)) CHECK(b.count == 0);
}

TEST_CASE("trunc removes all keys, or keeps the largest or smallest n", "[agg][aggregation][trunc]") {
  aggregation<Sum, std::string> sums;
  const auto fill = [&] {
    sums.trunc();
    for (auto [k, v] : std::initializer_list<std::pair<const char*, int>>{{"a", 1}, {"b", 5}, {"c", 3}, {"d", -2}})
      sums.at(k).add(v);
  };
  fill();
  sums.trunc(2);
  CHECK(contents(sums.snapshot()) == std::map<std::string, std::int64_t>{{"b", 5}, {"c", 3}});
  fill();
  sums.trunc(-2);
  CHECK(contents(sums.snapshot()) == std::map<std::string, std::int64_t>{{"a", 1}, {"d", -2}});
  fill();
  sums.trunc(0);
  CHECK(sums.snapshot().empty());
  fill();
  sums.trunc(10);
  CHECK(sums.snapshot().size() == 4);
  sums.trunc();
  CHECK(sums.snapshot().empty());
  sums.at("a").add(4);  // a removed key starts afresh
  CHECK(contents(sums.snapshot()) == std::map<std::string, std::int64_t>{{"a", 4}});
}

TEST_CASE("normalize sets the divisor snapshots carry, denormalize resets it", "[agg][aggregation][normalize]") {
  aggregation<Count> n;
  n.at().add();
  CHECK(n.snapshot().normal() == 1);
  n.normalize(1000);
  CHECK(n.snapshot().normal() == 1000);
  CHECK(n.snapshot().value(0) == 1);  // values stay raw; printing divides
  n.denormalize();
  CHECK(n.snapshot().normal() == 1);
  CHECK_THROWS_AS(n.normalize(0), std::invalid_argument);
}

TEST_CASE("descriptors carry the function and key types", "[agg][aggregation]") {
  aggregation<LQuantize, int, std::string> l(LQuantize(0, 100, 10), "lat");
  const auto d = l.descriptor();
  CHECK(d.name == "lat");
  CHECK(d.fn.kind == agg::kind::lquantize);
  CHECK(d.fn.param == LQuantize(0, 100, 10).param());
  CHECK(d.keys == std::vector<agg::key_type>{{agg::key_type::category::integer, 4, true},
                                             {agg::key_type::category::string, 0, false}});
  aggregation<Count> first, second;
  CHECK(first.varid() < second.varid());
}

TEST_CASE("keys that differ only in high bits or late bytes stay apart", "[agg][aggregation]") {
  aggregation<Count, std::uint64_t> spaced;
  aggregation<Count, std::string> names;
  for (std::uint64_t i = 0; i < 4096; ++i) {
    spaced.at(i << 40).add();
    spaced.at(i << 20).add();
    names.at("a_rather_long_common_prefix_" + std::to_string(i)).add();
  }
  CHECK(spaced.snapshot().size() == 2 * 4096 - 1);  // 0 appears in both series
  CHECK(names.snapshot().size() == 4096);
}
