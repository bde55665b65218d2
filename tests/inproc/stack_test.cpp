// stack() and ustack() in the in-process engine: the user stack from the function holding the
// probe site outwards, named from the executable's symbol table; no kernel stack.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "dtpp/consumer/session.hpp"
#include "../memory_file.hpp"
#include "compiled.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/inproc/probe.hpp"
#include "dtpp/print/frames.hpp"

using namespace dtpp;

// C names, so that the frames read the same whatever the compiler mangles.
extern "C" [[gnu::noinline]] void dtpp_stack_site() { DTPP_PROBE(stacktest, site); }
// A volatile count keeps one call site: an optimiser that knows `times` would unroll the loop into
// several sites, and so several stacks.
extern "C" [[gnu::noinline]] void dtpp_stack_caller(int times) {
  const volatile int count = times;
  for (int i = 0; i < count; ++i) dtpp_stack_site();
  asm volatile("");
}
extern "C" [[gnu::noinline]] void dtpp_stack_starter(inproc::engine& engine) {
  engine.go();
  asm volatile("");
}

namespace {

// "dtpp_inproc_tests`NAME+0x..." (the return address is past the start of the function).
bool names(const std::string& frame, const std::string& function) {
  return std::regex_match(frame, std::regex("dtpp_inproc_tests`" + function + "\\+0x[0-9a-f]+"));
}

}  // namespace

TEST_CASE("ustack() starts at the function holding the probe site", "[inproc][stack]") {
  inproc::engine engine(compiled("stacktest:::site { @[ustack(2)] = count(); }"), {.program_name = "test"});
  engine.go();
  dtpp_stack_caller(3);
  engine.stop();
  const auto t = engine.aggregation(1).snapshot();
  REQUIRE(t.size() == 1);  // three firings from one place: one stack
  CHECK(t.words(0)[0] == 3);
  const auto& record = t.key(0).records[0].string;
  REQUIRE(record.size() == 24);  // the process id, then two frames
  std::uint64_t pid = 0;
  std::memcpy(&pid, record.data(), 8);
  CHECK(pid == static_cast<std::uint64_t>(::getpid()));
  const auto frames = print::stack_frames(true, record);
  REQUIRE(frames.size() == 2);
  CHECK(names(frames[0], "dtpp_stack_site"));
  CHECK(names(frames[1], "dtpp_stack_caller"));
}

TEST_CASE("ustack() in BEGIN starts where go() was called, stack() is empty", "[inproc][stack]") {
  auto owned = std::make_unique<inproc::engine>(
      compiled("BEGIN { ustack(1); printf(\"%k|\", stack()); trace(ustack(1)); }"),
      inproc::engine_options{.program_name = "test"});
  auto& engine = *owned;
  options::option_set quiet;
  (void)quiet.set("quiet", std::nullopt);
  consumer::session session(std::move(owned), quiet, false);
  dtpp_stack_starter(engine);  // the engine's go(), so that BEGIN's stack starts there
  engine.stop();
  memory_file file;
  session.work(file.get(), {}, {});
  const auto out = file.text();
  // ustack(1): a newline, then the frame indented by 14; stack() prints its newline alone.
  const std::string indent(14, ' ');
  std::smatch m;
  REQUIRE(std::regex_match(out, m, std::regex("\n" + indent + "(.*)\n\n\\|\n" + indent + "(.*)\n")));
  CHECK(names(m[1].str(), "dtpp_stack_starter"));
  CHECK(m[2].str() == m[1].str());
}

TEST_CASE("ustack() on the engine's own timer thread has no frames", "[inproc][stack]") {
  inproc::engine engine(compiled("tick-1ms { @[ustack()] = count(); }"), {.program_name = "test"});
  engine.go();
  while (engine.aggregation(1).snapshot().empty()) usleep(1000);
  engine.stop();
  const auto t = engine.aggregation(1).snapshot();
  REQUIRE(t.size() == 1);
  CHECK(print::stack_frames(true, t.key(0).records[0].string).empty());
}

TEST_CASE("frames name what they can, as dtrace(1) does", "[inproc][stack]") {
  // No mapping holds address 16 and no kernel symbol is below it.
  CHECK(print::user_frame(::getpid(), 16) == "0x10");
  CHECK(print::kernel_frame(16) == "0x10");
  // A frame at a function's very start has no offset.
  CHECK(print::user_frame(::getpid(), reinterpret_cast<std::uintptr_t>(&dtpp_stack_site)) ==
        "dtpp_inproc_tests`dtpp_stack_site");
  // Records end at their first zero frame; an empty ustack record holds no pid.
  const std::uint64_t words[] = {16, 32, 0, 48};
  const std::string record(reinterpret_cast<const char*>(words), sizeof words);
  CHECK(print::stack_frames(false, record) == std::vector<std::string>{"0x10", "0x20"});
  CHECK(print::stack_frames(true, record) == std::vector<std::string>{"0x20"});
  CHECK(print::stack_frames(true, "").empty());
}
