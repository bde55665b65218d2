// dtrace_aggregate_walk() over 10,000 keys through the C API, next to the consumer handle's typed
// walk of the same aggregation: what libdtrace's raw layout costs over dtpp's typed snapshot.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "dtpp/c/dtrace.h"
#include "dtpp/consumer/handle.hpp"
#include "dtpp/inproc/probe.hpp"

namespace {

constexpr std::int64_t keys = 10'000;
constexpr const char* program = "bench:::key { @c[arg0] = sum(arg0); }";

[[gnu::noinline]] void fill() {
  for (std::int64_t i = 0; i < keys; ++i) DTPP_PROBE(bench, key, i);
}

// The C walker: reads each tuple's key and value words as Example 36 does.
int add_tuple(const dtrace_aggdata_t* data, void* arg) {
  const auto* desc = data->dtada_desc;
  const auto key = *reinterpret_cast<const std::int64_t*>(data->dtada_data + desc->dtagd_rec[1].dtrd_offset);
  const auto value = *reinterpret_cast<const std::int64_t*>(data->dtada_data + desc->dtagd_rec[2].dtrd_offset);
  *static_cast<std::int64_t*>(arg) += key + value;
  return DTRACE_AGGWALK_NEXT;
}

void BM_capi_aggregate_walk(benchmark::State& state) {
  int error = 0;
  dtrace_hdl_t* dtp = dtrace_open(DTRACE_VERSION, 0, &error);
  dtrace_prog_t* prog = dtrace_program_strcompile(dtp, program, DTRACE_PROBESPEC_NAME, 0, 0, nullptr);
  if (!prog || dtrace_program_exec(dtp, prog, nullptr) != 0 || dtrace_go(dtp) != 0) {
    state.SkipWithError(dtrace_errmsg(dtp, dtrace_errno(dtp)));
    dtrace_close(dtp);
    return;
  }
  fill();
  for (auto _ : state) {
    std::int64_t total = 0;
    if (dtrace_aggregate_walk(dtp, add_tuple, &total) != 0) state.SkipWithError("the walk failed");
    benchmark::DoNotOptimize(total);
  }
  dtrace_close(dtp);
  state.SetItemsProcessed(state.iterations() * keys);
}
BENCHMARK(BM_capi_aggregate_walk)->Unit(benchmark::kMicrosecond);

void BM_handle_typed_walk(benchmark::State& state) {
  dtpp::consumer::handle h;
  h.exec(h.compile(program));
  h.go();
  fill();
  for (auto _ : state) {
    std::int64_t total = 0;
    h.aggregation<dtpp::Sum, std::int64_t>("c").walk(
        dtpp::order::unsorted, [&](std::int64_t key, std::int64_t value) { total += key + value; });
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * keys);
}
BENCHMARK(BM_handle_typed_walk)->Unit(benchmark::kMicrosecond);

}  // namespace
