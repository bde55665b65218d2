// -x metrics: the price of a scrape (handle::metrics(): snapshot and OpenMetrics text) of an
// aggregation with 100,000 keys, and the probe rate of a traced thread while the consuming
// thread renders scrapes back to back, next to the same rate without scrapes.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "dtpp/consumer/handle.hpp"
#include "dtpp/inproc/probe.hpp"

namespace {

[[gnu::noinline]] void traced_operation(std::int64_t i) {
  DTPP_PROBE(metrics, op, i);
  benchmark::DoNotOptimize(i);
}

// A handle running `program`, its probe fired with 0 .. keys - 1 once each.
dtpp::consumer::handle filled(const char* program, std::int64_t keys) {
  dtpp::consumer::handle h;
  h.exec(h.compile(program));
  h.go();
  for (std::int64_t i = 0; i < keys; ++i) traced_operation(i);
  return h;
}

// One scrape's text of `@c[arg0] = count()` over 100,000 integer keys.
void BM_scrape_100k_integer_keys(benchmark::State& state) {
  auto h = filled("metrics:::op { @c[arg0] = count(); }", 100'000);
  std::size_t bytes = 0;
  for (auto _ : state) bytes = h.metrics().size();
  state.counters["bytes"] = static_cast<double>(bytes);
  state.SetItemsProcessed(state.iterations() * 100'000);
}
BENCHMARK(BM_scrape_100k_integer_keys)->Unit(benchmark::kMillisecond);

// The same with string keys ("key12345"), escaped and checked as UTF-8 on the way out.
void BM_scrape_100k_string_keys(benchmark::State& state) {
  auto h = filled("metrics:::op { @c[strjoin(\"key\", lltostr(arg0))] = count(); }", 100'000);
  for (auto _ : state) benchmark::DoNotOptimize(h.metrics());
  state.SetItemsProcessed(state.iterations() * 100'000);
}
BENCHMARK(BM_scrape_100k_string_keys)->Unit(benchmark::kMillisecond);

// quantize() over 1,000 keys: 128 lines a key (127 buckets and _count).
void BM_scrape_1k_quantize_keys(benchmark::State& state) {
  auto h = filled("metrics:::op { @q[arg0] = quantize(arg0); }", 1'000);
  for (auto _ : state) benchmark::DoNotOptimize(h.metrics());
  state.SetItemsProcessed(state.iterations() * 1'000);
}
BENCHMARK(BM_scrape_1k_quantize_keys)->Unit(benchmark::kMillisecond);

// Probes per second on this thread into a 100,000-key aggregation; with Arg 1, the consuming
// thread renders scrapes back to back meanwhile (a scraper polling as fast as it can).
void BM_probe_rate(benchmark::State& state) {
  auto h = filled("metrics:::op { @c[arg0 % 100000] = count(); }", 100'000);
  std::atomic<bool> done{false};
  std::atomic<std::int64_t> scrapes{0};
  std::thread consumer([&] {
    while (state.range(0) == 1 && !done.load()) {
      benchmark::DoNotOptimize(h.metrics());
      ++scrapes;
    }
  });
  std::int64_t i = 0;
  for (auto _ : state) traced_operation(i++);
  done = true;
  consumer.join();
  state.counters["scrapes"] = static_cast<double>(scrapes.load());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_probe_rate)->Arg(0)->Arg(1)->ArgName("scraping")->UseRealTime();

}  // namespace
