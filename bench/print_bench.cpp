// The cost of printing one printf() record, as the consumer does at every firing: with the format
// parsed once by the checker (what dtpp does), next to parsing it again at each firing (what it
// did before). And the cost of naming 10,000 distinct user stacks of 20 frames for printing
// (issue #11: under 100 ms), from a cold symbol cache.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dtpp/print/format.hpp"
#include "dtpp/symbols/cache.hpp"

namespace {

using dtpp::print::format;
using dtpp::print::traced;

// A typical tracing line: a name, a pid, a latency and a return value.
constexpr const char* line = "%-16s pid %-6d %8lluus ret=%d\n";

std::vector<traced> record() {
  return {traced::string("postgres"), traced::integer(4242, 4, true),
          traced::integer(1234567, 8, false), traced::integer(-11, 4, true)};
}

void BM_printf_parsed_once(benchmark::State& state) {
  const auto args = record();
  const auto f = format::parse(line);
  std::string out;
  for (auto _ : state) {
    out.clear();
    dtpp::print::print(out, f, args);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_printf_parsed_once);

void BM_printf_parsed_per_firing(benchmark::State& state) {
  const auto args = record();
  std::string out;
  for (auto _ : state) {
    out.clear();
    dtpp::print::print(out, format::parse(line), args);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_printf_parsed_per_firing);

__attribute__((noinline)) int bench_frame_target(int v) { return v * 3; }

// 10,000 stacks of 20 program counters in this program and the C library, no two alike, named
// frame by frame by a new cache each time: every mapped object is read, once, in the time.
void BM_name_10000_user_stacks_of_20_frames(benchmark::State& state) {
  const auto pid = static_cast<std::int64_t>(::getpid());
  const auto own = reinterpret_cast<std::uintptr_t>(&bench_frame_target);
  const auto libc = reinterpret_cast<std::uintptr_t>(&::write);
  std::vector<std::uint64_t> pcs;
  // The first two frames tell the stacks apart (10,000 < 100 x 101).
  for (std::uint64_t stack = 0; stack < 10000; ++stack)
    for (std::uint64_t frame = 0; frame < 20; ++frame)
      pcs.push_back((frame % 2 ? libc : own) + (frame == 0 ? stack % 100 : frame == 1 ? stack / 100 : 8 * frame));
  for (auto _ : state) {
    dtpp::symbols::cache names;
    std::size_t bytes = 0;
    for (const auto pc : pcs) bytes += names.frame(pid, pc).size();
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_name_10000_user_stacks_of_20_frames)->Unit(benchmark::kMillisecond);

}  // namespace
