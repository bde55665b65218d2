// Aggregation update throughput per thread, next to the baselines issue #2 names, and the cost of
// a snapshot plus keysorted walk next to std::sort over the same keys.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "dtpp/dtpp.hpp"

namespace {

constexpr std::size_t distinct_keys = 1024;  // keys cycled through by every update benchmark

// The order keys are visited in: a fixed shuffle, so no benchmark sees a trivial pattern.
const std::vector<std::uint32_t>& key_order() {
  static const auto order = [] {
    std::vector<std::uint32_t> v(distinct_keys);
    std::iota(v.begin(), v.end(), 0u);
    std::shuffle(v.begin(), v.end(), std::mt19937(1234));
    return v;
  }();
  return order;
}

// Short string keys (<= 16 bytes), like syscall or function names.
const std::vector<std::string>& string_keys() {
  static const auto keys = [] {
    std::vector<std::string> v;
    for (std::size_t i = 0; i < distinct_keys; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "%s_%zu", i % 2 ? "sys_read" : "futex_wait", i);
      v.emplace_back(name);
    }
    return v;
  }();
  return keys;
}

enum class key_kind { integer, string, tuple };

template <class Fn, key_kind K>
struct subject;
template <class Fn>
struct subject<Fn, key_kind::integer> {
  using type = dtpp::aggregation<Fn, std::uint64_t>;
  static void update(type& a, std::uint32_t k, std::int64_t v);
};
template <class Fn>
struct subject<Fn, key_kind::string> {
  using type = dtpp::aggregation<Fn, std::string>;
  static void update(type& a, std::uint32_t k, std::int64_t v);
};
template <class Fn>
struct subject<Fn, key_kind::tuple> {
  using type = dtpp::aggregation<Fn, std::int32_t, std::int32_t>;
  static void update(type& a, std::uint32_t k, std::int64_t v);
};

template <class Fn, class Slot>
inline void add(const Slot& slot, std::int64_t v) {
  if constexpr (std::is_same_v<Fn, dtpp::Count>) slot.add();
  else slot.add(v);
}
template <class Fn>
void subject<Fn, key_kind::integer>::update(type& a, std::uint32_t k, std::int64_t v) {
  add<Fn>(a.at(std::uint64_t{k}), v);
}
template <class Fn>
void subject<Fn, key_kind::string>::update(type& a, std::uint32_t k, std::int64_t v) {
  static const std::string* const keys = string_keys().data();
  add<Fn>(a.at(keys[k]), v);
}
template <class Fn>
void subject<Fn, key_kind::tuple>::update(type& a, std::uint32_t k, std::int64_t v) {
  add<Fn>(a.at(static_cast<std::int32_t>(k >> 5), static_cast<std::int32_t>(k & 31)), v);
}

template <class Fn>
Fn make_function() {
  if constexpr (std::is_same_v<Fn, dtpp::LQuantize>) return dtpp::LQuantize(0, 1000, 10);
  else return Fn{};
}

// One aggregation shared by every thread of a run: made by thread 0, released at the end.
template <class Fn, key_kind K>
void BM_update(benchmark::State& state) {
  using s = subject<Fn, K>;
  static std::unique_ptr<typename s::type> shared;
  if (state.thread_index() == 0) shared = std::make_unique<typename s::type>(make_function<Fn>());
  const auto& order = key_order();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 97;
  for (auto _ : state) {
    const auto k = order[i++ % distinct_keys];
    s::update(*shared, k, static_cast<std::int64_t>(k * 7 + 3));
  }
  state.SetItemsProcessed(state.iterations());
}

// The baselines.
void BM_mutex_unordered_map_string(benchmark::State& state) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::uint64_t> counts;
  const auto& order = key_order();
  const auto& keys = string_keys();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 97;
  for (auto _ : state) {
    const auto& key = keys[order[i++ % distinct_keys]];
    std::lock_guard lock(mutex);
    ++counts[key];
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_thread_local_unordered_map_string(benchmark::State& state) {
  thread_local std::unordered_map<std::string, std::uint64_t> counts;
  const auto& order = key_order();
  const auto& keys = string_keys();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 97;
  for (auto _ : state) ++counts[keys[order[i++ % distinct_keys]]];
  benchmark::DoNotOptimize(counts.size());
  state.SetItemsProcessed(state.iterations());
}

void BM_thread_local_array(benchmark::State& state) {
  thread_local std::uint64_t counts[distinct_keys];
  const auto& order = key_order();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 97;
  for (auto _ : state) {
    ++counts[order[i++ % distinct_keys]];
    benchmark::ClobberMemory();  // the increment must reach memory, as an aggregation's does
  }
  state.SetItemsProcessed(state.iterations());
}

#define DTPP_UPDATE_BENCH(FN, KIND)                                              \
  BENCHMARK_TEMPLATE(BM_update, dtpp::FN, key_kind::KIND)                        \
      ->Name("BM_update<" #FN ", " #KIND ">")                                   \
      ->Threads(1)                                                               \
      ->Threads(2)                                                               \
      ->UseRealTime()

DTPP_UPDATE_BENCH(Count, integer);
DTPP_UPDATE_BENCH(Count, string);
DTPP_UPDATE_BENCH(Count, tuple);
DTPP_UPDATE_BENCH(Sum, integer);
DTPP_UPDATE_BENCH(Sum, string);
DTPP_UPDATE_BENCH(Sum, tuple);
DTPP_UPDATE_BENCH(Avg, integer);
DTPP_UPDATE_BENCH(Avg, string);
DTPP_UPDATE_BENCH(Avg, tuple);
DTPP_UPDATE_BENCH(StdDev, integer);
DTPP_UPDATE_BENCH(StdDev, string);
DTPP_UPDATE_BENCH(StdDev, tuple);
DTPP_UPDATE_BENCH(Quantize, integer);
DTPP_UPDATE_BENCH(Quantize, string);
DTPP_UPDATE_BENCH(Quantize, tuple);
DTPP_UPDATE_BENCH(LQuantize, integer);
DTPP_UPDATE_BENCH(LQuantize, string);
DTPP_UPDATE_BENCH(LQuantize, tuple);
BENCHMARK(BM_mutex_unordered_map_string)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_thread_local_unordered_map_string)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_thread_local_array)->Threads(1)->Threads(2)->UseRealTime();

// Snapshot and keysorted walk of many keys, next to sorting the same keys.
constexpr std::size_t walk_keys = 1'000'000;

const std::vector<std::uint64_t>& random_keys() {
  static const auto keys = [] {
    std::vector<std::uint64_t> v(walk_keys);
    std::mt19937_64 rng(99);
    for (auto& k : v) k = rng();
    return v;
  }();
  return keys;
}

void BM_snapshot_keysorted_walk(benchmark::State& state) {
  dtpp::aggregation<dtpp::Count, std::uint64_t> counts;
  for (const auto k : random_keys()) counts.at(k).add();
  for (auto _ : state) {
    const auto snap = counts.snapshot();
    std::uint64_t total = 0;
    snap.walk(dtpp::order::keysorted, [&](std::uint64_t, std::uint64_t n) { total += n; });
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(walk_keys));
}
BENCHMARK(BM_snapshot_keysorted_walk)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_std_sort_keys(benchmark::State& state) {
  for (auto _ : state) {
    auto keys = random_keys();
    std::sort(keys.begin(), keys.end());
    benchmark::DoNotOptimize(keys.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(walk_keys));
}
BENCHMARK(BM_std_sort_keys)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
