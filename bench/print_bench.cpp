// The cost of printing one printf() record, as the consumer does at every firing: with the format
// parsed once by the checker (what dtpp does), next to parsing it again at each firing (what it
// did before).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "dtpp/print/format.hpp"

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

}  // namespace
