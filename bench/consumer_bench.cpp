// The consume loop's cost per record: work() taking 1,000 printf() records from the in-process
// engine and printing them as dtrace(1) does, with and without callbacks, next to snprintf() of
// the same text to the same stream, the floor for any printer.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>

#include "dtpp/consumer/handle.hpp"
#include "dtpp/inproc/probe.hpp"

namespace {

constexpr int records_per_batch = 1000;

[[gnu::noinline]] void request(std::int64_t i) { DTPP_PROBE(bench, request, i); }

void consume_batches(benchmark::State& state, const dtpp::consumer::probe_callback& on_probe,
                     const dtpp::consumer::record_callback& on_record) {
  std::FILE* null = std::fopen("/dev/null", "w");
  dtpp::consumer::handle h;
  h.setopt("quiet");
  h.exec(h.compile(R"(bench:::request { printf("%d %s\n", arg0, probename); })"));
  h.go();
  for (auto _ : state) {
    state.PauseTiming();
    for (int i = 0; i < records_per_batch; ++i) request(i);
    state.ResumeTiming();
    h.work(null, on_probe, on_record);
  }
  h.stop();
  h.work(null);
  std::fclose(null);
  state.SetItemsProcessed(state.iterations() * records_per_batch);
}

void BM_work_printf_records(benchmark::State& state) { consume_batches(state, {}, {}); }
BENCHMARK(BM_work_printf_records);

void BM_work_printf_records_with_callbacks(benchmark::State& state) {
  using dtpp::consumer::consume;
  consume_batches(
      state, [](const dtpp::consumer::probe_data&) { return consume::this_record; },
      [](const dtpp::consumer::probe_data&, const dtpp::consumer::record_data*) { return consume::this_record; });
}
BENCHMARK(BM_work_printf_records_with_callbacks);

void BM_snprintf_same_text(benchmark::State& state) {
  std::FILE* null = std::fopen("/dev/null", "w");
  char line[64];
  for (auto _ : state) {
    for (int i = 0; i < records_per_batch; ++i) {
      const int n = std::snprintf(line, sizeof line, "%d %s\n", i, "request");
      std::fwrite(line, 1, static_cast<std::size_t>(n), null);
    }
    std::fflush(null);
  }
  std::fclose(null);
  state.SetItemsProcessed(state.iterations() * records_per_batch);
}
BENCHMARK(BM_snprintf_same_text);

}  // namespace
