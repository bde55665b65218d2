// The handle's JSON (-x oformat=json, record_json, aggregation_json) and folded stacks for a C++
// tracer: probes in this program, exact documents.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../memory_file.hpp"
#include "dtpp/consumer/handle.hpp"
#include "dtpp/inproc/probe.hpp"
#include "dtpp/print/json.hpp"

using namespace dtpp;
using consumer::consume;
using consumer::handle;
using consumer::work_status;

// C names, so that the frames read the same whatever the compiler mangles.
extern "C" [[gnu::noinline]] void dtpp_json_request(std::int64_t id, const char* path) {
  DTPP_PROBE(jsontest, request, id, path);
}
extern "C" [[gnu::noinline]] void dtpp_json_caller(int times) {
  const volatile int count = times;  // one call site, not an unrolled loop of several
  for (int i = 0; i < count; ++i) dtpp_json_request(i, "/index.html");
  asm volatile("");
}

namespace {

handle running(std::string_view text, bool json) {
  handle h;
  if (json) h.setopt("oformat", "json");
  h.exec(h.compile(text));
  h.go();
  return h;
}

void finish(handle& h, std::FILE* out, const consumer::record_callback& on_record = {}) {
  h.stop();
  while (h.work(out, {}, on_record) == work_status::okay) h.sleep();
}

}  // namespace

TEST_CASE("oformat=json prints a probe's firings as lines a program reads", "[consumer][json]") {
  auto h = running(R"(jsontest:::request { printf("%d %s", arg0, copyinstr(arg1)); trace(arg0 - 2); }
                      jsontest:::request /arg0 == 1/ { @bytes[copyinstr(arg1)] = sum(arg0 * 100); })",
                   true);
  dtpp_json_caller(2);
  memory_file out;
  finish(h, out.get());
  h.aggregate_print(out.get());
  std::istringstream lines(out.text());
  std::vector<print::json> documents;
  for (std::string line; std::getline(lines, line);) documents.push_back(print::json::parse(line));
  REQUIRE(documents.size() == 3);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& probe = documents[i]["probe"];
    CHECK(probe["provider"] == "jsontest");
    CHECK(probe["name"] == "request");
    CHECK(documents[i]["enabled probe id"] == 1);
  }
  CHECK(documents[0]["output"].dump() == R"([{"message":"0 /index.html"},{"value":-2}])");
  CHECK(documents[1]["output"].dump() == R"([{"message":"1 /index.html"},{"value":-1}])");
  CHECK(documents[2].dump() ==
        R"({"aggregation":"bytes","function":"sum","data":[{"keys":["/index.html"],"value":100}]})");
}

TEST_CASE("a C++ tracer ships records and aggregations as JSON documents", "[consumer][json]") {
  auto h = running(R"(jsontest:::request { printf("req %d", arg0); @n[arg0 % 2] = count(); }
                      END { exit(3); })",
                   false);
  dtpp_json_caller(3);
  memory_file out;
  std::vector<std::string> shipped;
  finish(h, out.get(), [&](const consumer::probe_data&, const consumer::record_data* record) {
    if (record) shipped.push_back(h.record_json(*record).dump());
    return consume::next;
  });
  CHECK(shipped == std::vector<std::string>{R"({"message":"req 0"})", R"({"message":"req 1"})",
                                            R"({"message":"req 2"})", R"({"exit":3})"});
  CHECK(h.aggregation_json("n").dump() ==
        R"({"aggregation":"n","function":"count","data":[{"keys":[1],"value":1},{"keys":[0],"value":2}]})");
  CHECK(h.aggregation_json("n", order::keysorted)["data"][0]["keys"][0] == 0);
  CHECK_THROWS_WITH(h.aggregation_json("missing"), "no aggregation named @missing");
}

TEST_CASE("ustack() aggregations fold into this program's stacks, root first", "[consumer][folded]") {
  auto h = running("jsontest:::request { @[ustack(), copyinstr(arg1)] = count(); @other = count(); }", false);
  dtpp_json_caller(4);
  memory_file out;
  finish(h, out.get());
  const auto stacks = h.folded_stacks();
  REQUIRE(stacks.size() == 1);  // @other has no stack: not in the flame graph
  const auto& [stack, count] = *stacks.begin();
  CHECK(count == 4);
  // ...;caller;site;the other key. Frames without their offsets.
  const std::regex shape(".*;dtpp_consumer_tests`dtpp_json_caller;dtpp_consumer_tests`dtpp_json_request;/index.html");
  CHECK(std::regex_match(stack, shape));
  CHECK(stack.find("+0x") == std::string::npos);
  std::string text;
  print::print_folded(text, stacks);
  CHECK(text == stack + " 4\n");
}
