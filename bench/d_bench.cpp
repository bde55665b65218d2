// The D front end's speed: parse + check of a 5,000-clause generated script, and of the
// ordinary scripts a user types, where bpftrace takes about a quarter of a second to start.
#include <benchmark/benchmark.h>

#include <string>

#include "dtpp/d/check.hpp"
#include "dtpp/d/parser.hpp"

namespace {

std::string generated_script(int clauses) {
  std::string text = "#pragma D option quiet\n";
  for (int i = 0; i < clauses; ++i) {
    const auto n = std::to_string(i);
    text += "syscall::read:entry /pid == " + n + " && arg2 > " + n +
            "/\n{\n\tself->ts" + std::to_string(i % 64) + " = timestamp;\n\t@bytes[execname, probefunc] = sum(arg2);\n"
            "\t@lat[probefunc] = quantize(arg2 * 2 + " + n + ");\n\tprintf(\"%s %d %d\\n\", execname, pid, arg2);\n}\n";
  }
  return text;
}

const char* const typical_script =
    "syscall::read:entry { self->ts = timestamp; }\n"
    "syscall::read:return /self->ts/ { @lat[execname] = quantize(timestamp - self->ts); self->ts = 0; }\n"
    "END { printa(@lat); }\n";

void BM_compile_5000_clauses(benchmark::State& state) {
  const dtpp::d::source_file source("generated.d", generated_script(5000));
  for (auto _ : state) {
    const auto result = dtpp::d::compile(source);
    if (!result.errors.empty()) state.SkipWithError("the generated script did not compile");
    benchmark::DoNotOptimize(result.program.clauses.data());
  }
  state.SetItemsProcessed(state.iterations() * 5000);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(source.text().size()));
}
BENCHMARK(BM_compile_5000_clauses)->Unit(benchmark::kMillisecond);

void BM_parse_5000_clauses(benchmark::State& state) {
  const dtpp::d::source_file source("generated.d", generated_script(5000));
  for (auto _ : state) {
    const auto result = dtpp::d::parse(source);
    benchmark::DoNotOptimize(result.program.items.data());
  }
  state.SetItemsProcessed(state.iterations() * 5000);
}
BENCHMARK(BM_parse_5000_clauses)->Unit(benchmark::kMillisecond);

void BM_compile_typical_script(benchmark::State& state) {
  const dtpp::d::source_file source("latency.d", typical_script);
  for (auto _ : state) {
    const auto result = dtpp::d::compile(source);
    benchmark::DoNotOptimize(result.program.clauses.data());
  }
}
BENCHMARK(BM_compile_typical_script)->Unit(benchmark::kMicrosecond);

}  // namespace
