// The in-process engine: probes fired by C++ code, BEGIN/END order, variables of every scope,
// aggregations, records and faults.
#include <catch2/catch.hpp>
#include <atomic>
#include <cstdio>
#include <cstdint>
#include <latch>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dtpp/consumer/handle.hpp"
#include "../memory_file.hpp"
#include "../thread_cpu.hpp"
#include "compiled.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/inproc/probe.hpp"
#include "dtpp/print/json.hpp"

using namespace dtpp;

namespace {

// The id dtrace -l gives the testapp site `name`.
std::uint32_t site_id(const std::string& name) {
  for (const auto& p : inproc::available_probes())
    if (p.provider == "testapp" && p.name == name) return p.id;
  FAIL("no site " << name);
  return 0;
}

// Runs a program to its end (BEGIN, then `body` with the probes enabled, then END) and returns
// what dtrace(1) would print, quietly.
template <class Body>
std::string run(const std::string& text, Body body) {
  consumer::handle h;
  h.handle_faults([](const consumer::fault_data&) {});  // the ERROR probe reports them
  h.exec(h.compile("#pragma D option quiet\n" + text));
  h.go();
  body(dynamic_cast<inproc::engine&>(h.engine()));
  h.stop();
  memory_file out;
  h.work(out.get());
  std::fputc('\n', out.get());
  h.aggregate_print(out.get());
  return out.text();
}

[[gnu::noinline]] void request(int id, const char* path) { DTPP_PROBE(testapp, request, id, path); }
[[gnu::noinline]] void response(int id) { DTPP_PROBE(testapp, response, id); }
[[gnu::noinline]] void address(const std::uint8_t* bytes) { DTPP_PROBE(testapp, address, bytes); }

}  // namespace

TEST_CASE("DTPP_PROBE sites fire the clauses that name them, with their arguments", "[inproc]") {
  const auto out = run(
      "testapp:::request { printf(\"%s %d %s\\n\", probefunc, arg0, copyinstr(arg1)); }\n"
      "testapp::response:response /arg0 == 2/ { printf(\"response %d\\n\", arg0); }\n",
      [](auto&) {
        request(1, "/index.html");
        response(1);
        request(2, "/about");
        response(2);
      });
  CHECK(out == "request 1 /index.html\nrequest 2 /about\nresponse 2\n\n");
}

TEST_CASE("sites stay disabled without a program and after it stops", "[inproc]") {
  request(9, "ignored");  // no engine: nothing happens
  const auto out = run("testapp:::request { @n = count(); }", [](auto& engine) {
    request(1, "a");
    engine.stop();
    request(2, "b");  // stopped: not counted
  });
  CHECK(out == "\n                1\n");
}

TEST_CASE("thread-local variables are per thread, globals shared", "[inproc]") {
  const auto out = run(
      "int total;\n"  // += reads it: D refuses one never declared or assigned
      "testapp:::request { self->start = arg0; total += arg0; }\n"
      "testapp:::response /self->start/ { @sum[self->start] = sum(arg0 - self->start); self->start = 0; }\n"
      "END { printf(\"total %d\\n\", total); }\n",
      [](auto&) {
        std::thread a([] { request(10, "a"); response(15); });
        a.join();
        std::thread b([] { request(20, "b"); response(27); });
        b.join();
        response(99);  // this thread never set self->start
      });
  // self->start holds arg0, an int64_t: the keys print 16 wide.
  CHECK(out == "total 30\n\n               10                5\n               20                7\n");
}

TEST_CASE("vtimestamp is the thread's CPU time in nanoseconds, one value a firing: a burn shows, a 50 ms sleep does not", "[inproc]") {
  // response(n): 1 when vtimestamp moved at least n ns since the thread's request, and at most 2 ms
  // more; the sleeper passes 0 and must stay under 5 ms.
  const auto out = run(
      "testapp:::request { self->v = vtimestamp; }\n"
      "testapp:::response { d = vtimestamp - self->v;\n"
      "  printf(\"%d\\n\", arg0 ? d >= arg0 && d <= arg0 + 2000000 : d > 0 && d < 5000000); }\n"
      "testapp:::response { printf(\"%d\\n\", vtimestamp == self->v + d); }\n",  // one value a firing
      [](auto&) {
        std::thread a([] {
          request(1, "burn");
          response(static_cast<int>(testing::burn_cpu(20000000)));
        });
        a.join();
        std::thread b([] {
          request(2, "sleep");
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          response(0);
        });
        b.join();
      });
  CHECK(out == "1\n1\n1\n1\n\n");
}

TEST_CASE("BEGIN clauses run in order and exit() skips the later ones", "[inproc]") {
  consumer::handle h;
  h.setopt("quiet");
  h.exec(h.compile("BEGIN { x = 1; } BEGIN { x = 2; exit(3); x = 4; } BEGIN { x = 5; } "
                   "END { printf(\"%d\", x); }"));
  h.go();
  CHECK(h.engine().exited());
  CHECK(h.exit_status() == 3);
  h.stop();
  memory_file out;
  CHECK(h.work(out.get()) == consumer::work_status::done);
  CHECK(out.text() == "4");
}

TEST_CASE("a fault stops its clause, drops its data and is reported", "[inproc]") {
  inproc::engine engine(compiled("int y; BEGIN { printf(\"a\"); x = 1 / y; } BEGIN { printf(\"b\"); }"));
  engine.go();
  const auto faults = engine.take_faults();
  REQUIRE(faults.size() == 1);
  CHECK(dtpp::engine::describe(faults[0].kind, faults[0].value) == "divide-by-zero");
  CHECK(faults[0].statement == 0);
  CHECK(faults[0].pc == 4);  // printf 1; the statement x = ... 2, its assignment 3, the division 4
  CHECK(faults[0].epid == 1);
  const auto records = engine.take_records();
  REQUIRE(records.size() == 1);
  CHECK(records[0].epid == 2);
}

TEST_CASE("a fault fires the ERROR probe with DTrace's arguments", "[inproc]") {
  const auto out = run("int zero;\n"
                       "BEGIN { x = 10 / zero; }\n"
                       "ERROR { printf(\"error: probe %d clause %d fault %d value %d\\n\", arg1, arg2, arg4, arg5); }\n"
                       "testapp:::response { trace(copyinstr(arg0)); }\n",
                       [](auto&) { response(16); });
  CHECK(out == "error: probe 1 clause 0 fault 4 value 0\nerror: probe " + std::to_string(site_id("response")) +
                   " clause 2 fault 1 value 16\n\n");
}

TEST_CASE("probe ids are dtrace-utils': BEGIN 1, END 2, ERROR 3 whatever the order named, then the listing's",
          "[inproc][ids]") {
  const auto out = run("int zero;\n"
                       "ERROR { printf(\"ERROR %d %d\\n\", id, arg1); }\n"
                       "END { printf(\"END %d\\n\", id); }\n"
                       "testapp:::response { printf(\"response %d\\n\", id); }\n"
                       "BEGIN { printf(\"BEGIN %d\\n\", id); }\n"
                       "BEGIN { x = 1 / zero; }\n",
                       [](auto&) { response(1); });
  CHECK(out == "BEGIN 1\nERROR 3 1\nresponse " + std::to_string(site_id("response")) + "\nEND 2\n\n");
  // As dtrace -l lists them (ticks only listed here: a run's output can't tell when they fire):
  // the listed probes at their place, tick-1s (unlisted) after them.
  inproc::engine engine(compiled("tick-1s, tick-5000, END, testapp:::response, BEGIN {}"));
  std::vector<std::string> probes;
  for (const auto& p : engine.probes()) probes.push_back(std::to_string(p.id) + " " + p.name);
  const auto listed = inproc::available_probes().size();
  CHECK(probes == std::vector<std::string>{"1 BEGIN", "2 END", "16 tick-5000",
                                           std::to_string(site_id("response")) + " response",
                                           std::to_string(listed + 1) + " tick-1s"});
}

TEST_CASE("copyinstr of a bad address faults instead of crashing", "[inproc]") {
  inproc::engine engine(compiled("testapp:::response { trace(copyinstr(arg0)); }"));
  engine.go();
  response(16);  // address 16: unmapped
  const auto faults = engine.take_faults();
  REQUIRE(faults.size() == 1);
  CHECK(dtpp::engine::describe(faults[0].kind, faults[0].value) == "invalid address (0x10)");
  CHECK(faults[0].pc > 0);
}

TEST_CASE("inet_ntoa, inet_ntoa6 and inet_ntop read an address in the process's memory", "[inproc]") {
  // Each address as inet_ntoa6 gives it, then inet_ntop(AF_INET6): runs of two zero words or
  // more shrink to "::" (the first of the longest), and an IPv4 address inside is dotted. The
  // kernel engine's test tests/kernel/command/inet_ntoa6_text expects the same text.
  const std::vector<std::pair<std::array<std::uint8_t, 16>, const char*>> addresses = {
      {{0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x14, 0x4f, 0xff, 0xfe, 0x0b, 0x76, 0xc8}, "fe80::214:4fff:fe0b:76c8 fe80::214:4fff:fe0b:76c8"},
      {{0x10, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x08, 0, 0x0c, 0x41, 0x7a}, "1080::808:c:417a 1080::808:c:417a"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, "::1 ::1"},
      {{}, ":: ::"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0, 0, 1}, "127.0.0.1 ::127.0.0.1"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x7f, 0, 0, 1}, "127.0.0.1 ::ffff:127.0.0.1"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe, 0x7f, 0, 0, 1}, "::fffe:7f00:1 ::fffe:7f00:1"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, "0.0.0.2 ::0.0.0.2"},
      {{0xfe, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0x02, 0x14, 0, 0, 0, 0, 0, 0}, "fe12:3456:789a:bcde:214:: fe12:3456:789a:bcde:214::"},
      {{0xfe, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0x02, 0x14, 0x4f, 0xff, 0xfe, 0x0b, 0, 0}, "fe12:3456:789a:bcde:214:4fff:fe0b:0 fe12:3456:789a:bcde:214:4fff:fe0b:0"},
      {{0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3}, "1:0:0:2::3 1:0:0:2::3"},
      {{0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4}, "1::2:0:0:3:4 1::2:0:0:3:4"},
      {{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "1:: 1::"},
      {{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8}, "1:2:3:4:5:6:7:8 1:2:3:4:5:6:7:8"},
      {{0, 1, 0, 0, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7}, "1:0:2:3:4:5:6:7 1:0:2:3:4:5:6:7"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4}, "1.2.3.4 ::ffff:1.2.3.4"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0}, "0.0.0.0 ::ffff:0.0.0.0"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4}, "1.2.3.4 ::1.2.3.4"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2}, "0.1.0.2 ::0.1.0.2"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}, "::1:0:0 ::1:0:0"},
      {{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, "::1:0:0:0 ::1:0:0:0"},
      {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
       "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
  };
  std::string expected;
  for (const auto& [bytes, text] : addresses) expected += std::string(text) + "\n";
  CHECK(run("testapp:::address { printf(\"%s %s\\n\", inet_ntoa6((void *)arg0), inet_ntop(AF_INET6, (void *)arg0)); }",
            [&](auto&) {
              for (const auto& a : addresses) address(a.first.data());
            }) == expected + "\n");
  // IPv4: the first four bytes in memory order, for inet_ntoa and any family but AF_INET6;
  // strict or not as inet_ntoa6's constant says; strsize - 1 characters at most.
  const std::uint8_t ipv4[4] = {192, 168, 1, 23};
  CHECK(run("testapp:::address { printf(\"%s %s %s\\n\", inet_ntoa((ipaddr_t *)arg0), inet_ntop(AF_INET, (void *)arg0),\n"
            "  inet_ntop(-1, (void *)arg0)); }",
            [&](auto&) { address(ipv4); }) == "192.168.1.23 192.168.1.23 192.168.1.23\n\n");
  const std::uint8_t v4_compatible[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255};
  CHECK(run("testapp:::address { printf(\"%s %s\\n\", inet_ntoa6((void *)arg0, 0), inet_ntoa6((void *)arg0, 7)); }",
            [&](auto&) { address(v4_compatible); }) == "255.255.255.255 ::255.255.255.255\n\n");
}

TEST_CASE("inet_ntoa and inet_ntoa6 of a bad address fault", "[inproc]") {
  CHECK(run("testapp:::address { trace(inet_ntoa((ipaddr_t *)arg0)); }\n"
            "testapp:::address { trace(inet_ntoa6((void *)arg0)); }\n"
            "ERROR { printf(\"clause %d fault %d value %d\\n\", arg2, arg4, arg5); }",
            [](auto&) { address(reinterpret_cast<const std::uint8_t*>(16)); }) ==
        "clause 0 fault 1 value 16\nclause 1 fault 1 value 16\n\n");
  CHECK(run("#pragma D option strsize=8\n"
            "testapp:::address { printf(\"%s\\n\", inet_ntoa((ipaddr_t *)arg0)); }",
            [](auto&) {
              const std::uint8_t ipv4[4] = {192, 168, 1, 23};
              address(ipv4);
            }) == "192.168.\n\n");
}

TEST_CASE("profile-N fires once per CPU, tick-N once", "[inproc]") {
  inproc::engine engine(compiled("profile-100hz { @p[cpu] = count(); } tick-100hz { @t = count(); }"),
                        {.program_name = "test", .bufsize = 1 << 20, .cpus = 3});
  engine.go();
  // Until tick-100hz has fired 8 times (80 ms unless the machine is busy; 5 s at most).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto so_far = engine.aggregation(2).snapshot();
    if (so_far.size() == 1 && so_far.words(0)[0] >= 8) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  engine.stop();
  const auto p = engine.aggregation(1).snapshot();
  const auto t = engine.aggregation(2).snapshot();
  REQUIRE(p.size() == 3);  // CPUs 0, 1 and 2
  REQUIRE(t.size() == 1);
  // The two probes have timers of their own: their counts agree within one period. The
  // profile timer fires every CPU in one pass, so the CPUs' counts are equal.
  const auto ticks = t.words(0)[0];
  const auto per_cpu = p.words(0)[0];
  CHECK(ticks >= 8);
  CHECK(per_cpu + 1 >= ticks);
  CHECK(per_cpu <= ticks + 1);
  for (std::size_t i = 0; i < p.size(); ++i) CHECK(p.words(i)[0] == per_cpu);
}

TEST_CASE("tick-N and profile-N: arg0 (kernel pc) is 0, arg1 (user pc) is not", "[inproc]") {
  inproc::engine engine(compiled("tick-1ms, profile-1ms { @[probename, arg0 == 0, arg1 != 0] = count(); }"),
                        {.program_name = "test", .bufsize = 1 << 20, .cpus = 1});
  engine.go();
  while (engine.aggregation(1).snapshot().size() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  engine.stop();
  const auto t = engine.aggregation(1).snapshot();
  REQUIRE(t.size() == 2);  // one row per probe: every firing had arg0 == 0 and arg1 != 0
  for (std::size_t row = 0; row < 2; ++row) {
    CHECK(t.key(row).records[1].integer == 1);
    CHECK(t.key(row).records[2].integer == 1);
  }
}

TEST_CASE("a full principal buffer drops and counts records", "[inproc]") {
  inproc::engine engine(compiled("testapp:::response { printf(\"%d\", arg0); }"),
                        {.program_name = "test", .bufsize = 64, .cpus = 1});
  engine.go();
  for (int i = 0; i < 10; ++i) response(i);
  const auto kept = engine.take_records().size();
  CHECK(kept >= 1);
  CHECK(kept + engine.drops() == 10);
}

TEST_CASE("a fixed key that finds no room is a drop at each of its updates", "[inproc]") {
  // aggsize holds one count() row (an 8-byte key, the generation and the count: 24 bytes).
  inproc::engine engine(compiled("testapp:::response { @[1] = count(); } testapp:::request { @[2] = count(); }"),
                        {.program_name = "test", .aggsize = 24, .cpus = 1});
  engine.go();
  response(0);
  for (int i = 0; i < 5; ++i) request(i, "/");
  std::uint64_t dropped = 0;
  for (const auto& d : engine.take_drops()) dropped += d.count;
  CHECK(dropped == 5);
  const auto snap = engine.aggregation(1).snapshot();
  REQUIRE(snap.size() == 1);
  CHECK(snap.key(0).records.at(0).integer == 1);
}

TEST_CASE("probes only the kernel shim serves are refused with a clear error", "[inproc]") {
  CHECK_THROWS_WITH(inproc::engine(compiled("syscall::read:entry { @ = count(); }")),
                    "probe description syscall::read:entry does not match any probes in this process "
                    "(kernel probes need the kernel engine, dtpp::kernel::driver)");
}

TEST_CASE("D computes in 64 bits, stores, casts and records narrow", "[inproc]") {
  // dtrace-utils aggs/tst.negquant: an increment of (1 << 63) - 1 is INT64_MAX although 1 is an int.
  const auto out = run("BEGIN { @s = sum((1 << 40) + 1); x = (1 << 40) + 1; @x = sum(x);\n"
                       "        printf(\"%d %d\\n\", (1 << 40) + 1, (char)257); }",
                       [](auto&) {});
  CHECK(out == "1 1\n\n    1099511627777\n                1\n");
}

TEST_CASE("a string is at most strsize characters, whether a literal or a probe's name", "[inproc]") {
  // As in the kernel engine and dtrace-utils: the differential test found strlen() of a
  // 300-character literal to be 300 here and 255 there.
  const auto out = run("#pragma D option strsize=8\n"
                       "BEGIN { s = \"abcdefghijkl\"; printf(\"%d %s %d %s|%s\\n\", strlen(s), s,\n"
                       "        strlen(\"0123456789\"), \"0123456789\", probeprov); }",
                       [](auto&) {});
  CHECK(out == "8 abcdefgh 8 01234567|dtrace\n\n");
}

namespace {
// The data words of an in-process aggregation's row for one integer (or no) key, merged over the
// threads; empty when the key is not there.
std::vector<std::uint64_t> row_words(inproc::engine& engine, std::uint32_t varid,
                                     std::optional<std::uint64_t> key = std::nullopt) {
  const auto t = engine.aggregation(varid).snapshot();
  for (std::size_t row = 0; row < t.size(); ++row) {
    const auto& records = t.key(row).records;
    if (!key ? records.empty() : records.size() == 1 && records[0].integer == *key)
      return {t.words(row).begin(), t.words(row).end()};
  }
  return {};
}
std::uint64_t total(const std::vector<std::uint64_t>& words) {
  return std::accumulate(words.begin(), words.end(), std::uint64_t{0});
}
// Fires request(1 .. n) on each of two threads at once.
void request_from_two_threads(int n) {
  std::latch started(2);
  const auto fire = [&] {
    started.arrive_and_wait();
    for (int i = 1; i <= n; ++i) request(i, "x");
  };
  std::thread a(fire), b(fire);
  a.join();
  b.join();
}
// The count in @varid's only row, whose first key is the request probe's name.
std::uint64_t request_count(inproc::engine& engine, std::uint32_t varid) {
  const auto t = engine.aggregation(varid).snapshot();
  REQUIRE(t.size() == 1);
  CHECK(t.key(0).records[0].string == "request");
  return t.words(0)[0];
}
constexpr int n = 9999;  // requests fired on each thread
// An engine that ran `program` while request(1 .. n) fired on each of two threads at once.
std::unique_ptr<inproc::engine> after_requests_from_two_threads(const std::string& program) {
  auto engine = std::make_unique<inproc::engine>(compiled(program));
  engine->go();
  request_from_two_threads(n);
  engine->stop();
  CHECK(request_count(*engine, 1) == 2 * n);  // each program's first: @[probename] = count()
  return engine;
}
}  // namespace

TEST_CASE("a clause of updates only counts exactly from two threads", "[inproc]") {
  // Every operand form of the update-only clause: a fixed key and none, a key evaluated per
  // firing, constants, argN, and an expression.
  const auto run = after_requests_from_two_threads(
      "testapp:::request { @calls[probename] = count(); @sizes = quantize(arg0);\n"
      "  @total = sum(arg0 * 2); @by[arg0 % 3] = count(); @seven = lquantize(7, 0, 10, 1, arg0); }");
  const auto sizes = row_words(*run, 2);
  CHECK(total(sizes) == 2 * n);
  CHECK(sizes[agg::quantize::bucket(1)] == 2);
  CHECK(sizes[agg::quantize::bucket(4096)] == 2 * 4096);  // 4096 .. 8191
  CHECK(row_words(*run, 3) == std::vector<std::uint64_t>{2ull * n * (n + 1)});
  for (std::uint64_t residue = 0; residue < 3; ++residue)
    CHECK(row_words(*run, 4, residue) == std::vector<std::uint64_t>{2 * n / 3});
  const auto seven = row_words(*run, 5);
  const auto level = 1 + agg::lquantize_params::make(0, 10, 1).bucket(7);  // the parameter word first
  CHECK(seven[level] == std::uint64_t{n} * (n + 1));
  CHECK(total(seven) == seven[0] + seven[level]);
}

TEST_CASE("updates racing clear() and trunc() land whole, then count exactly", "[inproc]") {
  inproc::engine engine(compiled("testapp:::request { @c[probename] = count(); @s = sum(arg0); }"));
  engine.go();
  request(1, "x");  // this thread's rows, cached from here on
  std::atomic<bool> stop{false};
  std::thread firing([&] {
    while (!stop.load()) request(1, "x");
  });
  for (int i = 0; i < 2000; ++i) {
    engine.aggregation(1).clear();
    engine.aggregation(2).trunc();
    const auto counts = engine.aggregation(1).snapshot();
    CHECK(counts.size() <= 1);
  }
  stop = true;
  firing.join();
  // Rows cached before the clear and the trunc restart from zero.
  engine.aggregation(1).clear();
  engine.aggregation(2).trunc();
  CHECK(engine.aggregation(2).snapshot().size() == 0);
  constexpr int more = 1000;
  for (int i = 1; i <= more; ++i) request(i, "x");
  request_from_two_threads(more);
  engine.stop();
  CHECK(request_count(engine, 1) == 3 * more);
  CHECK(row_words(engine, 2) ==
        std::vector<std::uint64_t>{3 * std::uint64_t{more} * (more + 1) / 2});
}

TEST_CASE("an update whose value faults leaves no key behind", "[inproc]") {
  inproc::engine engine(compiled("testapp:::response { @s[arg0] = sum(10 / (arg0 - 2)); }"));
  engine.go();
  for (const int id : {1, 2, 3}) response(id);
  engine.stop();
  CHECK(engine.aggregation(1).snapshot().size() == 2);
  CHECK(row_words(engine, 1, 1) == std::vector<std::uint64_t>{static_cast<std::uint64_t>(-10)});
  CHECK(row_words(engine, 1, 2).empty());  // divided by zero: the clause stopped first
  CHECK(row_words(engine, 1, 3) == std::vector<std::uint64_t>{10});
  CHECK(engine.take_faults().size() == 1);
}

TEST_CASE("a clause of fixed keys, constants and arguments counts exactly from two threads", "[inproc]") {
  // The shape fired with no runner: every key fixed, every operand a constant or an argument,
  // every aggregating function (each has its own apply_direct).
  const auto run = after_requests_from_two_threads(
      "testapp:::request { @c[probename, 3] = count(); @q = quantize(arg0); @m = max(arg0);\n"
      "  @a = avg(arg0); @l = lquantize(arg0, 0, 10000, 1000, 3); @s = sum(5); @mn = min(arg0);\n"
      "  @sd = stddev(arg0); @ll = llquantize(arg0, 10, 0, 4, 10, arg0); }");
  const auto second_key = run->aggregation(1).snapshot().key(0).records.at(1);
  CHECK(second_key.integer == 3);
  const auto q = row_words(*run, 2);
  CHECK(total(q) == 2 * n);
  CHECK(q[agg::quantize::bucket(n)] == 2 * (n - 8192 + 1));  // 8192 .. 9999
  CHECK(row_words(*run, 3) == std::vector<std::uint64_t>{n});
  CHECK(row_words(*run, 4) == std::vector<std::uint64_t>{2 * n, std::uint64_t{n} * (n + 1)});
  const auto l = row_words(*run, 5);
  const auto levels = agg::lquantize_params::make(0, 10000, 1000);
  CHECK(total(l) - l[0] == 3 * 2 * n);  // the parameter word first
  CHECK(l[1 + levels.bucket(9000)] == 3 * 2 * 1000);  // 9000 .. 9999
  CHECK(row_words(*run, 6) == std::vector<std::uint64_t>{5 * 2 * n});
  CHECK(row_words(*run, 7) == std::vector<std::uint64_t>{1});
  const auto sd = row_words(*run, 8);  // count, sum, then the squares' 128 bits
  REQUIRE(sd.size() == 4);
  CHECK(sd[0] == 2 * n);
  CHECK(sd[1] == std::uint64_t{n} * (n + 1));
  CHECK(sd[2] == std::uint64_t{n} * (n + 1) * (2 * n + 1) / 3);  // 2 (1^2 + ... + n^2), low word
  CHECK(sd[3] == 0);
  const auto ll = row_words(*run, 9);
  CHECK(total(ll) - ll[0] == std::uint64_t{n} * (n + 1));  // each value weighted by itself
}

TEST_CASE("substr, index and rindex take DTrace's out-of-range starts and counts", "[inproc]") {
  // A negative index counts from the end; the part of the range before the string is cut off.
  CHECK(run("BEGIN { s = \"abcde\"; printf(\"[%s][%s][%s][%s][%s][%s][%s][%s]\\n\", substr(s, -6, 3), substr(s, -7, 3),\n"
            "  substr(s, -8, 3), substr(s, -10), substr(s, 5), substr(s, 2, -1), substr(s, 1, -9), substr(\"\", 0)); }",
            [](auto&) {}) == "[ab][a][][abcde][][cd][][]\n\n");
  // index: a negative start is 0, past the end finds only "" (at the length); rindex: a negative
  // start finds only "" (at 0), one past the end is the end.
  CHECK(run("BEGIN { s = \"abcabc\"; printf(\"%d %d %d %d %d %d %d %d %d %d %d\\n\", index(s, \"c\", -3), index(s, \"c\", 3),\n"
            "  index(s, \"\", 9), index(s, \"a\", 9), index(\"\", \"\"), rindex(s, \"b\", -1), rindex(s, \"\", -1),\n"
            "  rindex(s, \"b\", 3), rindex(s, \"\", 99), rindex(s, \"abcabcd\"), index(s, \"x\")); }",
            [](auto&) {}) == "2 5 6 -1 0 -1 0 1 6 -1 -1\n\n");
}

TEST_CASE("lltostr and strtoll in every base, with DTrace's prefixes, signs and base errors", "[inproc]") {
  CHECK(run("BEGIN { printf(\"%s %s %s %s %s %s %s %s\\n\", lltostr(0), lltostr(-9223372036854775807 - 1),\n"
            "  lltostr(255, 16), lltostr(0, 16), lltostr(8, 8), lltostr(0, 8), lltostr(35, 36), lltostr(-1, 2)); }",
            [](auto&) {}) ==
        "0 -9223372036854775808 0xff 0x0 010 0 z " + std::string(64, '1') + "\n\n");
  CHECK(run("BEGIN { printf(\"%d %d %d %d %d %d %d %d %d\\n\", strtoll(\" \\t-0x1fz\", 16), strtoll(\"123abc\"),\n"
            "  strtoll(\"Zz\", 36), strtoll(\"\"), strtoll(\"+077\", 8), strtoll(\"0x\", 16), strtoll(\"-\"),\n"
            "  strtoll(\"9223372036854775807\"), strtoll(\"18446744073709551615\")); }",
            [](auto&) {}) == "-31 123 1295 0 63 0 0 9223372036854775807 -1\n\n");
  // A base outside 2..36 is an illegal operation (fault 3) with the base as its value.
  CHECK(run("BEGIN { x = lltostr(1, 1); }\n"
            "BEGIN { y = strtoll(\"1\", 37); }\n"
            "BEGIN { y = strtoll(\"1\", -2); }\n"
            "BEGIN { x = lltostr(1, 36); y = strtoll(\"1\", 2); printf(\"%s %d\\n\", x, y); }\n"
            "ERROR { printf(\"clause %d fault %d value %d\\n\", arg2, arg4, arg5); }",
            [](auto&) {}) == "clause 0 fault 3 value 1\nclause 1 fault 3 value 37\nclause 2 fault 3 value -2\n1 1\n\n");
}

TEST_CASE("lltostr, toupper, tolower and cleanpath results are at most strsize characters", "[inproc]") {
  CHECK(run("#pragma D option strsize=4\n"
            "BEGIN { printf(\"%s %s %s %s %s\\n\", lltostr(-12345), lltostr(255, 16), toupper(\"abcdef\"),\n"
            "  tolower(\"ABCDEF\"), cleanpath(\"/abc/def\")); }",
            [](auto&) {}) == "-123 0xff ABCD abcd /abc\n\n");
}

TEST_CASE("toupper, tolower, cleanpath, the byte-order and dev_t subroutines", "[inproc]") {
  CHECK(run("BEGIN { printf(\"[%s][%s][%s][%s]\\n\", toupper(\"az-AZ{`@09\"), tolower(\"AZ-az[@\\\\\"), toupper(\"\"),\n"
            "  tolower(\"\")); }",
            [](auto&) {}) == "[AZ-AZ{`@09][az-az[@\\][][]\n\n");
  CHECK(run("BEGIN { printf(\"[%s][%s][%s][%s][%s][%s][%s][%s]\\n\", cleanpath(\"/a/../b/./c//\"), cleanpath(\"a/../..\"),\n"
            "  cleanpath(\"\"), cleanpath(\"/../..\"), cleanpath(\"./\"), cleanpath(\"a/..\"), cleanpath(\"//\"),\n"
            "  cleanpath(\"../a/./b/\")); }",
            [](auto&) {}) == "[/b/c][..][][/][.][.][/][../a/b]\n\n");
  CHECK(run("BEGIN { x = 0x123456789abcdef0; printf(\"%x %x %x %x %x %x %x %x\\n\", htons(x), htonl(x), htonll(x),\n"
            "  ntohs(x), ntohl(x), ntohll(x), getmajor(0xabcdef0123456789), getminor(0xabcdef0123456789)); }",
            [](auto&) {}) == "f0de f0debc9a f0debc9a78563412 f0de f0debc9a f0debc9a78563412 234 56789\n\n");
}

TEST_CASE("strtok gives a string's tokens, progenyof follows this process's parents", "[inproc]") {
  // No token left is NULL, shown here as "-": printing it with %s faults, as in DTrace.
  const std::string shown = "inline string shown[string s] = s != NULL ? s : \"-\";\n";
  CHECK(run(shown + "BEGIN { printf(\"[%s][%s][%s][%s][%s]\\n\", strtok(\",,ab,cd\", \",\"), shown[strtok(\"\", \",\")],\n"
            "  shown[strtok(\",,,\", \",\")], strtok(\"abc\", \"\"), strtok(\" a b\", \"\\t \")); }",
            [](auto&) {}) == "[ab][-][-][abc][a]\n\n");
  // strtok(NULL, ...) goes on from the delimiter that ended the last token, from clause to
  // clause; 0 is NULL; a new string starts again.
  CHECK(run(shown + "BEGIN { printf(\"[%s]\", strtok(\"a,b;;c\", \",\")); }\n"
            "BEGIN { printf(\"[%s]\", strtok(NULL, \";\")); printf(\"[%s]\", strtok(NULL, \",;\")); }\n"
            "BEGIN { printf(\"[%s][%s]\", shown[strtok(0, \",\")], shown[strtok(NULL, \"\")]); }\n"
            "BEGIN { printf(\"[%s]\", strtok(\"x y\", \" \")); printf(\"[%s]\", strtok(NULL, \"\")); }\n"
            "BEGIN { printf(\"[%s]\\n\", shown[strtok(NULL, \" \")]); }",
            [](auto&) {}) == "[a][,b][c][-][-][x][ y][-]\n\n");
  // Before any string, strtok(NULL, ...) faults; so does printing a NULL token.
  CHECK(run("BEGIN { strtok(NULL, \",\"); }\n"
            "BEGIN { printf(\"[%s]\", strtok(\"\", \",\")); }\n"
            "ERROR { printf(\"fault %d %d\\n\", arg4, arg5); }",
            [](auto&) {}) == "fault 1 0\nfault 1 0\n\n");
  CHECK(run("BEGIN { printf(\"%d %d %d %d\\n\", progenyof(pid), progenyof(ppid), progenyof(1), progenyof(-1)); }",
            [](auto&) {}) == "1 1 1 0\n\n");
}

TEST_CASE("print() shows a struct in the process's memory, and a bad address faults", "[inproc]") {
  struct {
    std::int32_t a, zero;
    std::int64_t b;
  } object{-5, 0, INT64_MAX};
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&object);
  char at[32];
  std::snprintf(at, sizeof at, "%p", static_cast<const void*>(bytes));
  const std::string pad(44, ' ');
  const auto printed = std::string(at) + " = *\n" + pad + "(struct pair) {\n" + pad + " .a = (int)-5,\n" + pad +
                       " .b = (long long)9223372036854775807,\n" + pad + "}\n";
  CHECK(run("struct pair { int a; int zero; long long b; };\n"
            "testapp:::address { print((struct pair *)arg0); }",
            [&](auto&) { address(bytes); }) == printed + "\n");

  // In JSON, the same text is the record's "print" member.
  consumer::handle h;
  h.setopt("oformat", "json");
  h.exec(h.compile("struct pair { int a; int zero; long long b; };\n"
                   "testapp:::address { print((struct pair *)arg0); }"));
  h.go();
  address(bytes);
  h.stop();
  memory_file json_out;
  h.work(json_out.get());
  CHECK(print::json::parse(json_out.text())["output"] == print::json::array({{{"print", printed}}}));

  inproc::engine engine(compiled("struct pair { int a; int zero; long long b; };\n"
                                 "testapp:::address { print((struct pair *)arg0); }"));
  engine.go();
  address(reinterpret_cast<const std::uint8_t*>(16));  // unmapped
  const auto faults = engine.take_faults();
  REQUIRE(faults.size() == 1);
  CHECK(dtpp::engine::describe(faults[0].kind, faults[0].value) == "invalid address (0x10)");
  CHECK(faults[0].pc > 0);
}
