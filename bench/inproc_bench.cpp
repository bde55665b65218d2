// The cost of a DTPP_PROBE site: disabled (no program enables it), enabled with a clause that
// does `@[probename] = count(); @l = quantize(arg0);`, next to the same two updates made through
// the typed aggregation API, and enabled with `@[ustack()] = count();`.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "dtpp/agg/aggregation.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/inproc/probe.hpp"
#include "../tests/kernel/nop1_site.hpp"

namespace {

[[gnu::noinline]] void traced_operation(std::int64_t i) {
  DTPP_PROBE(bench, op, i);
  benchmark::DoNotOptimize(i);
}

[[gnu::noinline]] void untraced_operation(std::int64_t i) { benchmark::DoNotOptimize(i); }

void BM_call_without_probe(benchmark::State& state) {
  std::int64_t i = 0;
  for (auto _ : state) untraced_operation(i++);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_call_without_probe);

void BM_probe_disabled(benchmark::State& state) {
  std::int64_t i = 0;
  for (auto _ : state) traced_operation(i++);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_probe_disabled);

// A function holding a disabled site and nothing else, at the default 5-byte nop and at
// DTPP_PROBE_NOP1's one-byte nop (tests/kernel/nop1_site.cpp, the same function).
[[gnu::noinline]] void nop5_site(std::int64_t i) { DTPP_PROBE(bench, alone, i); }

template <void (*site)(std::int64_t)>
void BM_disabled_site_alone(benchmark::State& state) {
  std::int64_t i = 0;
  for (auto _ : state) site(i++);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_disabled_site_alone<nop5_site>)->Name("BM_disabled_site_alone/nop5");
BENCHMARK(BM_disabled_site_alone<nop1_site>)->Name("BM_disabled_site_alone/nop1");

// Calls the traced operation with its site enabled by `program`, arguments 0 to 1023 over and over.
void run_enabled_site(benchmark::State& state, const char* program) {
  const dtpp::d::source_file source("bench.d", program);
  const auto compiled = dtpp::d::compile(source);
  if (!compiled.errors.empty()) {
    state.SkipWithError("the benchmark's D program did not compile");
    return;
  }
  dtpp::inproc::engine engine(compiled.program);
  engine.go();
  std::int64_t i = 0;
  for (auto _ : state) traced_operation(i++ & 1023);
  engine.stop();
  state.SetItemsProcessed(state.iterations());
}

void BM_probe_enabled_count_quantize(benchmark::State& state) {
  run_enabled_site(state, "bench:::op { @[probename] = count(); @l = quantize(arg0); }");
}
BENCHMARK(BM_probe_enabled_count_quantize);

// `@[ustack()] = count()`: what an enabled site costs when it keys on its caller's stack (the
// walk of 20 frames by backtrace() and a 168-byte key).
void BM_probe_enabled_count_by_ustack(benchmark::State& state) {
  run_enabled_site(state, "bench:::op { @[ustack()] = count(); }");
}
BENCHMARK(BM_probe_enabled_count_by_ustack);

void BM_typed_api_count_quantize(benchmark::State& state) {
  dtpp::aggregation<dtpp::Count, std::string> counts;
  dtpp::aggregation<dtpp::Quantize> latency;
  std::int64_t i = 0;
  for (auto _ : state) {
    counts.at("op").add();
    latency.at().add(i++ & 1023);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_typed_api_count_quantize);

}  // namespace
