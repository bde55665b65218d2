// JSON documents of values and aggregations (-x oformat=json), folded stacks (-x oformat=folded)
// and the flame graph's document, for fixed data: exact text, every edge.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dtpp/agg/functions.hpp"
#include "dtpp/print/flamegraph.hpp"
#include "dtpp/print/folded.hpp"
#include "dtpp/print/json.hpp"

using namespace dtpp;
using agg::key_type;
using agg::record;

namespace {

constexpr auto int64_min = std::numeric_limits<std::int64_t>::min();
constexpr auto int64_max = std::numeric_limits<std::int64_t>::max();
const key_type int64_key{key_type::category::integer, 8, true};

std::string line(const print::json& document) {
  std::string out;
  print::append_json_line(out, document);
  return out;
}

// A table of `fn` with one row per key, each row given the values in `samples`.
template <class Fn>
agg::dynamic_table table(const Fn& fn, std::string name, std::vector<key_type> keys,
                         const std::vector<std::pair<agg::dynamic_key, std::vector<std::int64_t>>>& rows) {
  agg::dynamic_table t({1, std::move(name), agg::function::of(fn), std::move(keys)});
  for (const auto& [key, samples] : rows) {
    const auto row = t.add_row(key);
    for (const auto x : samples) fn.add(t.words(row).data(), x, 1);
  }
  return t;
}

// The bytes of a ustack() record: the process id, then the program counters, innermost first.
std::string ustack_record(std::uint64_t pid, std::vector<std::uint64_t> pcs) {
  std::string bytes(8 * (pcs.size() + 1), '\0');
  std::memcpy(bytes.data(), &pid, 8);
  if (!pcs.empty()) std::memcpy(bytes.data() + 8, pcs.data(), 8 * pcs.size());  // no frames: no copy
  return bytes;
}

// A process id no process has (above the kernel's pid_max limit): its frames are plain addresses.
constexpr std::uint64_t no_process = 0x7ffffff0;

}  // namespace

TEST_CASE("traced values keep their types in JSON", "[print][json]") {
  using print::traced;
  CHECK(line(print::json_value(traced::integer(int64_min, 8, true))) == "-9223372036854775808\n");
  CHECK(line(print::json_value(traced::integer(int64_max, 8, true))) == "9223372036854775807\n");
  CHECK(line(print::json_value(traced::integer(-1, 8, false))) == "18446744073709551615\n");
  CHECK(line(print::json_value(traced::integer(-2, 1, true))) == "-2\n");
  CHECK(line(print::json_value(traced::integer(-2, 1, false))) == "254\n");
  CHECK(line(print::json_value(traced::integer(0, 4, true))) == "0\n");
  CHECK(line(print::json_value(traced::string(""))) == "\"\"\n");
  CHECK(line(print::json_value(traced::stack({}))) == "[]\n");
  CHECK(line(print::json_value(traced::stack({"a.out`main", "libc.so.6`__libc_start_main+0x8a"}))) ==
        "[\"a.out`main\",\"libc.so.6`__libc_start_main+0x8a\"]\n");
}

TEST_CASE("strings in JSON: quotes, backslashes and control bytes escaped, NUL ends, bad UTF-8 replaced",
          "[print][json]") {
  using print::traced;
  CHECK(line(print::json_value(traced::string("say \"hi\" \\ now"))) == "\"say \\\"hi\\\" \\\\ now\"\n");
  CHECK(line(print::json_value(traced::string("\t\n\r\x01\x1f\x7f"))) == "\"\\t\\n\\r\\u0001\\u001f\x7f\"\n");
  CHECK(line(print::json_value(traced::string(std::string("ab\0cd", 5)))) == "\"ab\"\n");
  // One byte that is no UTF-8 is one U+FFFD; valid UTF-8 around it stays as it is.
  CHECK(line(print::json_value(traced::string("caf\xc3\xa9 \xff!"))) == "\"caf\xc3\xa9 \xef\xbf\xbd!\"\n");
  CHECK(line(print::json_value(traced::string("\xc3"))) == "\"\xef\xbf\xbd\"\n");
  const std::string long_text(5000, 'x');
  CHECK(line(print::json_value(traced::string(long_text))) == "\"" + long_text + "\"\n");
}

TEST_CASE("count, sum, min and max are integers to their limits", "[print][json]") {
  CHECK(line(print::json_aggregation(table(Count{}, "c", {}, {{{}, {1, 1, 1}}}))) ==
        R"({"aggregation":"c","function":"count","data":[{"keys":[],"value":3}]})" "\n");
  const auto sums = table(Sum{}, "s", {{key_type::category::string, 16, false}},
                          {{{{record::of_string("zero", 16)}}, {0}},
                           {{{record::of_string("negative", 16)}}, {-5}},
                           {{{record::of_string("top", 16)}}, {int64_max}},
                           {{{record::of_string("bottom", 16)}}, {int64_min}}});
  CHECK(line(print::json_aggregation(sums)) ==
        R"({"aggregation":"s","function":"sum","data":[)"
        R"({"keys":["bottom"],"value":-9223372036854775808},{"keys":["negative"],"value":-5},)"
        R"({"keys":["zero"],"value":0},{"keys":["top"],"value":9223372036854775807}]})" "\n");
  CHECK(line(print::json_aggregation(table(Min{}, "", {}, {{{}, {3, int64_min, 7}}}))) ==
        R"({"aggregation":"","function":"min","data":[{"keys":[],"value":-9223372036854775808}]})" "\n");
  CHECK(line(print::json_aggregation(table(Max{}, "m", {}, {{{}, {-3, -7}}}))) ==
        R"({"aggregation":"m","function":"max","data":[{"keys":[],"value":-3}]})" "\n");
}

TEST_CASE("avg and stddev are numbers, not dtrace(1)'s truncated integers", "[print][json]") {
  CHECK(line(print::json_aggregation(table(Avg{}, "a", {}, {{{}, {1, 2}}}))) ==
        R"({"aggregation":"a","function":"avg","data":[{"keys":[],"value":1.5}]})" "\n");
  CHECK(line(print::json_aggregation(table(Avg{}, "a", {}, {{{}, {-1, -2}}}))) ==
        R"({"aggregation":"a","function":"avg","data":[{"keys":[],"value":-1.5}]})" "\n");
  CHECK(line(print::json_aggregation(table(StdDev{}, "d", {}, {{{}, {2, 4, 4, 4, 5, 5, 7, 9}}}))) ==
        R"({"aggregation":"d","function":"stddev","data":[{"keys":[],"value":2.0}]})" "\n");
  CHECK(line(print::json_aggregation(table(StdDev{}, "d", {}, {{{}, {1, 2}}}))) ==
        R"({"aggregation":"d","function":"stddev","data":[{"keys":[],"value":0.5}]})" "\n");
  // normalize() divides the exact mean.
  auto t = table(Avg{}, "a", {}, {{{}, {3}}});
  t.set_normal(2);
  CHECK(line(print::json_aggregation(t)) ==
        R"({"aggregation":"a","function":"avg","data":[{"keys":[],"value":1.5}]})" "\n");
}

TEST_CASE("histograms are their counted buckets with bounds, outer ones to the INT64 limits", "[print][json]") {
  CHECK(line(print::json_aggregation(table(Quantize{}, "q", {}, {{{}, {0, -1, 1000, 1000, int64_max, int64_min}}}))) ==
        R"({"aggregation":"q","function":"quantize","data":[{"keys":[],"value":{"buckets":[)"
        R"({"min":-9223372036854775808,"max":-4611686018427387904,"count":1},)"
        R"({"min":-1,"max":-1,"count":1},{"min":0,"max":0,"count":1},{"min":512,"max":1023,"count":2},)"
        R"({"min":4611686018427387904,"max":9223372036854775807,"count":1}]}}]})" "\n");
  CHECK(line(print::json_aggregation(table(LQuantize(0, 10, 2), "l", {}, {{{}, {-5, 5, 100}}}))) ==
        R"({"aggregation":"l","function":"lquantize","data":[{"keys":[],"value":{"buckets":[)"
        R"({"min":-9223372036854775808,"max":-1,"count":1},{"min":4,"max":5,"count":1},)"
        R"({"min":10,"max":9223372036854775807,"count":1}]}}]})" "\n");
  CHECK(line(print::json_aggregation(table(LLQuantize(10, 0, 1, 10), "ll", {}, {{{}, {0, 7, 5000}}}))) ==
        R"({"aggregation":"ll","function":"llquantize","data":[{"keys":[],"value":{"buckets":[)"
        R"({"min":-9223372036854775808,"max":0,"count":1},{"min":7,"max":7,"count":1},)"
        R"({"min":100,"max":9223372036854775807,"count":1}]}}]})" "\n");
  // A histogram without samples has no buckets.
  agg::dynamic_table empty({1, "q", agg::function::of(Quantize{}), {}});
  empty.add_row({});
  CHECK(line(print::json_aggregation(empty)) ==
        R"({"aggregation":"q","function":"quantize","data":[{"keys":[],"value":{"buckets":[]}}]})" "\n");
}

TEST_CASE("an empty aggregation has no rows, many keys keep their order and types", "[print][json]") {
  CHECK(line(print::json_aggregation(agg::dynamic_table({1, "e", agg::function::of(Count{}), {int64_key}}))) ==
        R"({"aggregation":"e","function":"count","data":[]})" "\n");
  const key_type u8{key_type::category::integer, 1, false}, i32{key_type::category::integer, 4, true};
  const std::vector<key_type> keys = {int64_key, {key_type::category::string, 8, false}, u8, i32, int64_key};
  const auto t = table(Count{}, "k", keys,
                       {{{{record::of_integer(int64_key, 1), record::of_string("two", 8), record::of_integer(u8, 0xfe),
                           record::of_integer(i32, 0xfffffffc), record::of_integer(int64_key, static_cast<std::uint64_t>(int64_min))}},
                         {1}}});
  CHECK(line(print::json_aggregation(t)) ==
        R"({"aggregation":"k","function":"count","data":[{"keys":[1,"two",254,-4,-9223372036854775808],"value":1}]})" "\n");
}

TEST_CASE("stacks fold root first, other keys leading, offsets dropped, counts merged", "[print][folded]") {
  const key_type ustack_key{key_type::category::ustack, 8 * 4, false};
  const auto t = table(Count{}, "s", {{key_type::category::string, 16, false}, ustack_key},
                       {{{{record::of_string("a;b", 16), {ustack_key, 0, ustack_record(no_process, {0x1000, 0x2000, 0x3000})}}}, {1, 1, 1}},
                        {{{record::of_string("a;b", 16), {ustack_key, 0, ustack_record(no_process, {0x1001, 0x2000, 0x3000})}}}, {1}},
                        {{{record::of_string("c", 16), {ustack_key, 0, ustack_record(no_process, {})}}}, {1, 1}}});
  print::folded_stacks stacks;
  print::fold(stacks, t);
  std::string out;
  print::print_folded(out, stacks);
  CHECK(out ==
        "a_b;0x3000;0x2000;0x1000 3\n"
        "a_b;0x3000;0x2000;0x1001 1\n"
        "c;[no frames] 2\n");
  CHECK(print::folded_frame("libc.so.6`__write+0x14") == "libc.so.6`__write");
  CHECK(print::folded_frame("a.out`0x401000") == "a.out`0x401000");
  CHECK(print::folded_frame("vmlinux`x;y\nz") == "vmlinux`x_y_z");
  CHECK(print::folded_frame("+0x10") == "+0x10");
}

TEST_CASE("folded counts: values as printed, histograms by samples, keyless tuples by name", "[print][folded]") {
  print::folded_stacks stacks;
  print::fold(stacks, table(Sum{}, "total", {}, {{{}, {-7}}}));
  print::fold(stacks, table(Quantize{}, "q", {int64_key}, {{{{record::of_integer(int64_key, static_cast<std::uint64_t>(-4))}}, {1, 2, 300}}}));
  print::fold(stacks, agg::dynamic_table({1, "none", agg::function::of(Count{}), {int64_key}}));
  std::string out;
  print::print_folded(out, stacks);
  CHECK(out == "-4 3\n@total -7\n");
}

TEST_CASE("the flame graph has a box per merged frame and a note when there is nothing to draw", "[print][flamegraph]") {
  const auto svg = print::flamegraph_svg({{"main;a;x", 2}, {"main;a", 1}, {"main;b<&>", 3}, {"idle", 0}, {"bad", -1}});
  std::size_t boxes = 0;
  for (auto at = svg.find("<g class=\"f\""); at != std::string::npos; at = svg.find("<g class=\"f\"", at + 1)) ++boxes;
  CHECK(boxes == 5);  // all, main, a, x, b<&>
  CHECK(svg.find("<title>all (6 samples, 100.00%)</title>") != std::string::npos);
  CHECK(svg.find("<title>b&lt;&amp;&gt; (3 samples, 50.00%)</title>") != std::string::npos);
  CHECK(svg.find("idle") == std::string::npos);
  CHECK(svg.find("<script><![CDATA[") != std::string::npos);
  CHECK(svg.find("no stacks to draw") == std::string::npos);
  const auto empty = print::flamegraph_svg({});
  CHECK(empty.find("no stacks to draw") != std::string::npos);
  CHECK(empty.find("<g class=\"f\"") == std::string::npos);
}
