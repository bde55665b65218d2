// The consumer's output of a printf() record stream, per firing as its session prints them:
// dtrace(1)'s text next to -x oformat=json (one JSON line a firing). The target: JSON keeps up
// with 1,000,000 records a second on one core (docs/performance.md).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "dtpp/consumer/record_printer.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/d/source.hpp"
#include "dtpp/inproc/engine.hpp"

namespace {

using dtpp::consumer::output_format;

// A typical tracing line: a name, a pid, a latency and a return value.
constexpr const char* program =
    R"(BEGIN { printf("%-16s pid %-6d %8lluus ret=%d\n", "postgres", 4242, 1234567, -11); })";

void print_stream(benchmark::State& state, output_format format) {
  const dtpp::d::source_file source("bench", program);
  const auto compiled = dtpp::d::compile(source);
  if (!compiled.errors.empty()) return state.SkipWithError("the benchmark's D program did not compile");
  dtpp::inproc::engine engine(compiled.program);
  engine.go();  // BEGIN: the one firing printed over and over
  const auto firings = engine.take_records();
  if (firings.size() != 1) return state.SkipWithError("BEGIN did not record one firing");
  const auto& firing = firings.front();
  const auto& clause = compiled.program.clauses[firing.epid - 1];
  dtpp::consumer::printer_options options;
  options.format = format;
  dtpp::consumer::record_printer printer(engine, options);
  std::string out;
  for (auto _ : state) {
    out.clear();
    printer.open(firing, out);
    for (const auto& s : clause.statements) printer.print(s, firing, out);
    printer.close(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
  engine.stop();
}

void BM_text_printf_stream(benchmark::State& state) { print_stream(state, output_format::text); }
BENCHMARK(BM_text_printf_stream);

void BM_json_printf_stream(benchmark::State& state) { print_stream(state, output_format::json); }
BENCHMARK(BM_json_printf_stream);

}  // namespace
