// flowindent's FUNCTION column: entries indent, returns come back, other probes show their name.
#include <catch2/catch.hpp>

#include "dtpp/consumer/flow_indent.hpp"

using namespace dtpp;

namespace {

engine::probe_info probe(std::uint32_t id, std::string provider, std::string function, std::string name) {
  return {id, std::move(provider), "", std::move(function), std::move(name), {}, {}};
}

engine::firing firing(std::uint32_t epid, std::uint32_t probe_id, std::uint32_t cpu = 0) {
  return {epid, probe_id, cpu, {}, 0};
}

}  // namespace

TEST_CASE("flowindent indents entries, comes back at returns, per CPU", "[consumer]") {
  consumer::flow_indent flow;
  const auto open_entry = probe(1, "syscall", "open", "entry"), foo_entry = probe(2, "pid", "foo", "entry");
  const auto tick = probe(3, "profile", "", "tick-1s"), foo_return = probe(4, "pid", "foo", "return");
  const auto open_return = probe(5, "syscall", "open", "return"), bar_return = probe(6, "pid", "bar", "return");
  CHECK(flow.function_column(open_entry, firing(1, 1)) == " => open");
  CHECK(flow.function_column(foo_entry, firing(2, 2)) == "   -> foo");
  // The next clause of the same firing does not indent again.
  CHECK(flow.function_column(foo_entry, firing(3, 2)) == "    | foo:entry");
  CHECK(flow.function_column(tick, firing(4, 3)) == "    | :tick-1s");
  CHECK(flow.function_column(foo_entry, firing(2, 2, 1)) == " -> foo");  // CPU 1 has its own depth
  CHECK(flow.function_column(foo_return, firing(5, 4)) == "   <- foo");
  CHECK(flow.function_column(open_return, firing(6, 5)) == " <= open");
  CHECK(flow.function_column(bar_return, firing(7, 6)) == " <- bar");  // never below 0
  // The same clause again is a new call.
  CHECK(flow.function_column(foo_entry, firing(2, 2)) == " -> foo");
  CHECK(flow.function_column(foo_entry, firing(2, 2)) == "   -> foo");
}

TEST_CASE("flowindent takes entry and return as names or -suffixes only", "[consumer]") {
  consumer::flow_indent flow;
  CHECK(flow.function_column(probe(1, "usdt", "f", "method-entry"), firing(1, 1)) == " -> f");
  CHECK(flow.function_column(probe(2, "usdt", "g", "carpentry"), firing(2, 2)) == "  | g:carpentry");
  CHECK(flow.function_column(probe(3, "usdt", "h", "-return"), firing(3, 3)) == " <- h");
  CHECK(flow.function_column(probe(4, "usdt", "k", "returns"), firing(4, 4)) == "| k:returns");
}
