// libFuzzer target: any bytes through parse + check + rendering, then both engines' code
// generation (the in-process compiler's closures, the kernel's eBPF instructions, nothing loaded),
// must neither crash nor hang nor grow memory without bound (built with clang, AddressSanitizer and
// UBSan; see docs/fuzzing.md). An engine may refuse a program with its error type; any other
// exception escapes and is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/inproc/engine.hpp"
#include "stub_targets.hpp"

namespace {

// The in-process engine compiles every clause for each probe it binds; with every description
// rewritten to BEGIN, which any process can fire, every clause is compiled whatever it names.
void compile_in_process(dtpp::ir::program program) {
  for (auto& c : program.clauses) c.probes = {{"dtrace", "", "", "BEGIN", c.where}};
  try {
    const dtpp::inproc::engine engine(program);
  } catch (const dtpp::engine::error&) {
  }
}

void generate_for_kernel(const dtpp::ir::program& program) {
  const auto targets = dtpp::kernel::stub_targets(program.clauses.size());
  std::vector<dtpp::engine::probe_info> infos;
  for (const auto& t : targets) infos.push_back(t.info);
  try {
    dtpp::kernel::scratch_plan prefix;
    const auto layout = dtpp::kernel::plan_layout(program, infos, 2, 1, prefix);
    for (const auto& t : targets) {
      auto scratch = prefix;
      (void)dtpp::kernel::generate(program, t, layout, scratch);
    }
  } catch (const dtpp::kernel::error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const dtpp::d::source_file source("fuzz.d", std::string(reinterpret_cast<const char*>(data), size));
  const auto result = dtpp::d::compile(source);
  for (const auto& e : result.errors) (void)dtpp::d::render(e, source);
  if (!result.errors.empty()) return 0;
  (void)dtpp::d::dump(result.program);
  compile_in_process(result.program);
  generate_for_kernel(result.program);
  return 0;
}
