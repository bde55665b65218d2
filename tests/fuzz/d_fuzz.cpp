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

namespace {

using dtpp::kernel::target;

// The in-process engine compiles every clause for each probe it binds; with every description
// rewritten to BEGIN, which any process can fire, every clause is compiled whatever it names.
void compile_in_process(dtpp::ir::program program) {
  for (auto& c : program.clauses) c.probes = {{"dtrace", "", "", "BEGIN", c.where}};
  try {
    const dtpp::inproc::engine engine(program);
  } catch (const dtpp::engine::error&) {
  }
}

// Stub kernel probes, one of each kind the code generator distinguishes, each running every
// clause: what tracefs would say about them (argument layout, event id) is made up, since nothing
// is loaded. The last one is a raw_syscalls program finding its probe in a table.
std::vector<target> stub_targets(std::size_t clauses) {
  std::vector<target> out;
  const auto add = [&](target::kind kind, const char* provider, const char* function, const char* name) {
    target t;
    t.type = kind;
    t.info = {static_cast<std::uint32_t>(out.size() + 1), provider, "", function, name, {}};
    for (std::uint32_t i = 0; i < clauses; ++i) t.info.clauses.push_back(i);
    out.push_back(std::move(t));
    return &out.back();
  };
  add(target::kind::begin, "dtrace", "", "BEGIN");
  add(target::kind::end, "dtrace", "", "END");
  auto* entry = add(target::kind::syscall_entry, "syscall", "read", "entry");
  for (std::uint32_t i = 0; i < 3; ++i) entry->args.push_back({16 + 8 * i, 8, false});
  add(target::kind::syscall_return, "syscall", "read", "return");
  auto* tracepoint = add(target::kind::tracepoint, "tracepoint", "sched", "sched_switch");
  tracepoint->args = {{8, 16, false}, {24, 4, true}, {28, 4, true}, {32, 8, true}, {40, 2, false}, {42, 1, true}};
  add(target::kind::profile, "profile", "", "profile-97")->period = 10309278;
  add(target::kind::tick, "profile", "", "tick-1")->period = 1000000000;
  auto* raw = add(target::kind::syscall_entry, "syscall", "write", "entry");
  for (std::uint32_t i = 0; i < 6; ++i) raw->args.push_back({16 + 8 * i, 8, false});
  raw->probe_table = dtpp::kernel::map_fixed;
  return out;
}

void generate_for_kernel(const dtpp::ir::program& program) {
  const auto targets = stub_targets(program.clauses.size());
  std::vector<dtpp::engine::probe_info> infos;
  for (const auto& t : targets) infos.push_back(t.info);
  try {
    dtpp::kernel::scratch_plan prefix;
    const auto layout = dtpp::kernel::plan_layout(program, infos, 2, prefix);
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
