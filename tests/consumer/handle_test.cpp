// The consumer handle: Example 35's flow (seed 003), seed 000's stddev program through the typed
// view, dtrace(1)'s output from work() and aggregate_print(), options, errors and callbacks.
#include "dtpp/consumer/handle.hpp"

#include "../memory_file.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <string_view>
#include <thread>
#include <vector>

using namespace dtpp;
using consumer::consume;
using consumer::errc;
using consumer::handle;
using consumer::work_status;

namespace {

// Scripts of the command's tests (tests/command), which the handle must run as dtpp runs them.
std::string command_test(const std::string& file) {
  return std::string(DTPP_TEST_DATA) + "/../command/" + file;
}

// A new file in /tmp holding `text`: its path, which the caller unlinks.
std::string script_file(const std::string& text) {
  char path[] = "/tmp/dtpp_handle_testXXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  ::close(fd);
  return path;
}

// Seed 000's program: fifteen samples of stddev() under three keys, then exit(0).
const std::string stddev_script = command_test("run_seed_stddev.d");

// Counts to five on a 10 ms tick, printing each count, then exits with status 3.
constexpr const char* tick_program = R"(#pragma D option quiet
tick-10ms { n++; printf("tick %d\n", n); }
tick-10ms /n == 5/ { exit(3); }
)";

// The consumer loop of Example 35, until work() says done.
void run(handle& h, std::FILE* out, const consumer::probe_callback& on_probe = {},
         const consumer::record_callback& on_record = {}) {
  while (h.work(out, on_probe, on_record) == work_status::okay) h.sleep();
}

// A handle that has run BEGIN of a program, from D text or from a script.
handle running(std::string_view text) {
  handle h;
  h.exec(h.compile(text));
  h.go();
  return h;
}
handle running_script(const std::string& path) {
  handle h;
  h.exec(h.compile_file(path));
  h.go();
  return h;
}

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("Example 35's flow runs seed 000's stddev program", "[consumer][handle]") {
  handle h;                                         // dtrace_open
  const auto prog = h.compile_file(stddev_script);  // dtrace_program_fcompile
  h.exec(prog);                                     // dtrace_program_exec
  h.setopt("aggsize", "512k");                      // dtrace_setopt
  h.go();                                           // dtrace_go

  int firings = 0, records = 0, ends = 0;
  const auto chew = [&](const consumer::probe_data& p) {
    ++firings;
    CHECK(p.probe.name == "BEGIN");
    CHECK(p.epid == 1);
    return consume::this_record;
  };
  const auto chewrec = [&](const consumer::probe_data&, const consumer::record_data* rec) {
    if (!rec) {
      ++ends;
      return consume::this_record;
    }
    ++records;
    if (rec->action() == ir::action::exit) {  // dtrace(1)'s chewrec takes the status itself
      CHECK(rec->integer() == 0);
      return consume::next;
    }
    return consume::this_record;
  };
  memory_file out;
  for (int i = 0; i < 10; ++i) {
    h.sleep();                                             // dtrace_sleep
    const auto status = h.work(out.get(), chew, chewrec);  // dtrace_work
    CHECK((status == work_status::okay || status == work_status::done));
  }
  h.stop();                      // dtrace_stop
  h.aggregate_print(out.get());  // dtrace_aggregate_print

  CHECK(firings == 1);
  CHECK(records == 1);
  CHECK(ends == 1);
  CHECK(h.exit_status() == 0);
  CHECK(out.text() ==
        "CPU     ID                    FUNCTION:NAME\n"
        "  0      1                           :BEGIN \n"
        "  foo                                                               1\n"
        "  bar                                                               2\n"
        "  baz                                                               4\n");

  SECTION("the typed view gives Example 36's exact values") {
    const auto c = h.aggregation<dtpp::StdDev, std::string>("c");
    std::string table;
    char line[80];
    std::snprintf(line, sizeof line, "%10s %10s %11s %11s\n", "NAME", "COUNT", "AVG", "STDDEV");
    table += line;
    c.walk(order::keysorted, [&](std::string_view name, const dtpp::stddev& s) {
      std::snprintf(line, sizeof line, "%10s %10lu %11.3f %11.3f\n", std::string(name).c_str(),
                    static_cast<unsigned long>(s.count), s.mean(), s.stddev_value());
      table += line;
    });
    CHECK(table ==
          "      NAME      COUNT         AVG      STDDEV\n"
          "       bar          5      10.000       2.828\n"
          "       baz          5      23.000       4.243\n"
          "       foo          5       3.000       1.414\n");
  }

  SECTION("a typed view of the wrong function, keys or name is refused") {
    CHECK_THROWS_MATCHES((h.aggregation<dtpp::Count, std::string>("c")), agg::type_error,
                         Catch::Message("dtpp: @c holds stddev() values, not count()"));
    CHECK_THROWS_MATCHES((h.aggregation<dtpp::StdDev, int>("c")), agg::type_error,
                         Catch::Message("dtpp: key #1 of @c is string, not int32"));
    CHECK_THROWS_MATCHES((h.aggregation<dtpp::StdDev, std::string>("d")), consumer::error,
                         Catch::Message("no aggregation named @d"));
    try {
      (void)h.aggregation<dtpp::StdDev, std::string>("d");
    } catch (const consumer::error& e) {
      CHECK(e.code() == ENOENT);
    }
  }
}

TEST_CASE("aggregate_print honours the walk order and the aggsort options", "[consumer][handle]") {
  auto h = running_script(stddev_script);
  memory_file ignored;
  run(h, ignored.get());
  const auto print = [&](order o = order::sorted) {
    memory_file out;
    h.aggregate_print(out.get(), o);
    return out.text();
  };
  const std::string foo = "  foo                                                               1\n";
  const std::string bar = "  bar                                                               2\n";
  const std::string baz = "  baz                                                               4\n";
  CHECK(print() == foo + bar + baz);
  CHECK(print(order::keysorted) == bar + baz + foo);
  CHECK(print(order::keyrevsorted) == foo + baz + bar);
  h.setopt("aggsortrev");
  CHECK(print() == baz + bar + foo);
  h.setopt("aggsortkey");
  CHECK(print() == foo + baz + bar);
  h.setopt("aggsortrev", "no");
  CHECK(print() == bar + baz + foo);

  SECTION("aggregate_clear keeps the keys with zeroed values") {
    h.aggregate_clear();
    CHECK(print() ==
          "  bar                                                               0\n"
          "  baz                                                               0\n"
          "  foo                                                               0\n");
  }
}

TEST_CASE("options read back as libdtrace keeps them, with DTrace's defaults",
          "[consumer][handle]") {
  handle h;
  const std::pair<const char*, std::optional<std::string>> defaults[] = {
      {"bufsize", "4194304"},       {"aggsize", "4194304"},
      {"switchrate", "0"},          {"aggrate", "0"},
      {"statusrate", "1000000000"}, {"strsize", "256"},
      {"dynvarsize", "1048576"},    {"nspec", "1"},
      {"specsize", "4194304"},      {"stackindent", "14"},
      {"bufpolicy", "2"},           {"bufresize", "0"},
      {"quiet", std::nullopt},      {"aggsortkey", std::nullopt},
      {"cleanrate", std::nullopt}};
  for (const auto& [name, expected] : defaults) {
    INFO(name);
    CHECK(h.getopt(name) == expected);
  }

  // Sizes in bytes, rates in nanoseconds, toggles 0 when set without a value, 1 for yes and
  // unset for no, choices by DTRACEOPT_* number; each setting in turn.
  struct setting {
    const char* name;
    std::optional<std::string_view> value;
    std::optional<std::string> expected;
  };
  const setting settings[] = {{"bufsize", "512k", "524288"},
                              {"aggsize", "2m", "2097152"},
                              {"strsize", "1K", "1024"},
                              {"dynvarsize", "0x100", "256"},
                              {"printsize", {}, "8192"},
                              {"printsize", "100", "104"},
                              {"switchrate", "10hz", "100000000"},
                              {"statusrate", "50ms", "50000000"},
                              {"aggrate", "3", "3"},
                              {"aggrate", "2min", "120000000000"},
                              {"cleanrate", "101Hz", "9900990"},
                              {"quiet", {}, "0"},
                              {"quiet", "yes", "1"},
                              {"quiet", "Off", std::nullopt},
                              {"aggsortkeypos", "2", "2"},
                              {"bufpolicy", "fill", "1"}};
  for (const auto& [name, value, expected] : settings) {
    INFO(name << "=" << std::string(value.value_or("(none)")));
    h.setopt(name, value);
    CHECK(h.getopt(name) == expected);
  }

  SECTION("a program's pragmas set the handle's options as it compiles") {
    (void)h.compile("#pragma D option aggsortkey\n#pragma D option switchrate=5hz\nBEGIN {}");
    CHECK(h.getopt("aggsortkey") == "0");
    CHECK(h.getopt("switchrate") == "200000000");
  }
}

TEST_CASE("bad option names and values are refused in libdtrace's words", "[consumer][handle]") {
  handle h;
  const auto refused = [&](std::string_view name, std::optional<std::string_view> value) {
    try {
      h.setopt(name, value);
    } catch (const consumer::error& e) {
      return std::to_string(e.code()) + " " + e.what();
    }
    return std::string("accepted");
  };
  const auto name = std::to_string(static_cast<int>(errc::bad_option_name));
  const auto value = std::to_string(static_cast<int>(errc::bad_option_value));
  CHECK(refused("nosuch", {}) == name + " failed to set option 'nosuch': Invalid option name");
  CHECK(refused("bufsize", "lots") ==
        value + " failed to set option 'bufsize': Invalid value for specified option");
  CHECK(refused("strsize", "1") ==
        value + " failed to set option 'strsize': Invalid value for specified option");
  CHECK(refused("errtags", "1") ==
        value + " failed to set option 'errtags': Invalid value for specified option");
  CHECK(refused("switchrate", "5fortnights") ==
        value + " failed to set option 'switchrate': Invalid value for specified option");
  CHECK(refused("bufpolicy", {}) ==
        value + " failed to set option 'bufpolicy': Invalid value for specified option");
  CHECK(h.getopt("bufsize") == "4194304");  // a refused value changes nothing

  CHECK_THROWS_MATCHES(h.getopt("errtags"), consumer::error,
                       Catch::Message("failed to get option 'errtags': Invalid option name"));
  CHECK_THROWS_MATCHES(h.getopt("nosuch"), consumer::error,
                       Catch::Message("failed to get option 'nosuch': Invalid option name"));

  SECTION("once tracing is active only dynamic options change") {
    h.exec(h.compile("tick-1s { }"));
    h.go();
    CHECK(refused("bufsize", "1m") ==
          std::to_string(static_cast<int>(errc::tracing_active)) +
              " failed to set option 'bufsize': Operation illegal when tracing is active");
    CHECK(refused("quiet", {}) == "accepted");
    CHECK(refused("switchrate", "1ms") == "accepted");
  }
}

TEST_CASE("options set before exec apply to the program", "[consumer][handle]") {
  SECTION("quiet drops the probe lines") {
    handle h;
    h.setopt("quiet");
    h.exec(h.compile("BEGIN { printf(\"hello\\n\"); exit(0); }"));
    h.go();
    memory_file out;
    run(h, out.get());
    CHECK(out.text() == "hello\n");
  }
  SECTION("bufsize bounds the principal buffer") {
    // The firing takes 12 bytes, as DTrace counts them: a 4-byte enabled probe id, printf()'s
    // int and exit()'s.
    for (const auto& [bufsize, text, drops] :
         {std::tuple{"11", "", 1}, std::tuple{"12", "42\n", 0}}) {
      handle h;
      h.setopt("quiet");
      h.setopt("bufsize", bufsize);
      h.exec(h.compile("BEGIN { printf(\"%d\\n\", 42); exit(0); }"));
      h.handle_drops([](const consumer::drop_data&) {});
      h.go();
      memory_file out;
      run(h, out.get());
      CHECK(out.text() == text);
      CHECK(h.status().drops == static_cast<std::uint64_t>(drops));
      CHECK(h.exit_status() == 0);
    }
  }
}

TEST_CASE("work() reads the buffers once a switchrate, and sees exit() only then", "[consumer][handle]") {
  constexpr const char* program = R"(#pragma D option quiet
BEGIN { printf("begin\n"); exit(0); }
END { printf("end\n"); })";
  SECTION("within switchrate nothing is read, and stop() reads at once") {
    handle h;
    h.setopt("switchrate", "1h");
    h.exec(h.compile(program));
    h.go();
    memory_file out;
    CHECK(h.work(out.get()) == work_status::okay);
    CHECK(h.work(out.get()) == work_status::okay);
    CHECK(out.text().empty());
    h.stop();
    CHECK(h.work(out.get()) == work_status::done);
    CHECK(out.text() == "begin\nend\n");
  }
  SECTION("an exit() ends the run no sooner than the next switch") {
    handle h;
    h.setopt("switchrate", "300ms");
    h.exec(h.compile(program));
    const auto start = std::chrono::steady_clock::now();
    h.go();
    memory_file out;
    int works = 0;
    for (; h.work(out.get()) == work_status::okay; ++works) h.sleep();
    CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));
    CHECK(works >= 1);
    CHECK(out.text() == "begin\nend\n");
  }
}

TEST_CASE("noresolve names each user frame by its object and an offset", "[consumer][handle]") {
  handle h;
  h.setopt("noresolve");
  h.setopt("quiet");
  h.exec(h.compile("BEGIN { ustack(); exit(0); }"));
  h.go();
  memory_file out;
  run(h, out.get());
  std::istringstream lines(out.text());
  std::size_t frames = 0, ours = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    ++frames;
    INFO(line);
    // "module:0xoffset", or "0x..." where no object is mapped: never a function's name.
    const auto colon = line.find(":0x");
    const auto at = colon == std::string::npos ? line.find("0x") : colon + 1;
    REQUIRE(at != std::string::npos);
    CHECK(line.find('`') == std::string::npos);
    CHECK(line.find_first_not_of("0123456789abcdefx", at) == std::string::npos);
    ours += line.find("dtpp_consumer_tests:0x") != std::string::npos;
  }
  CHECK(frames >= 3);
  CHECK(ours >= 1);
}

TEST_CASE("freopen() sends the output to a file and back, ftruncate() empties it", "[consumer][handle]") {
  char dir[] = "/tmp/dtpp_freopen_XXXXXX";
  REQUIRE(::mkdtemp(dir) != nullptr);
  const std::string first = std::string(dir) + "/first", other = std::string(dir) + "/other";
  std::FILE* out = std::fopen(first.c_str(), "w");
  REQUIRE(out != nullptr);
  handle h;
  h.setopt("quiet");
  h.setopt("destructive");
  h.exec(h.compile("BEGIN { printf(\"one\\n\"); ftruncate(); printf(\"two\\n\"); freopen(\"" + other +
                   "\"); printf(\"three\\n\"); freopen(\"\"); printf(\"four\\n\"); exit(0); }"));
  h.go();
  run(h, out);
  std::fclose(out);
  CHECK(read_file(first) == "two\nfour\n");
  CHECK(read_file(other) == "three\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("a library file depending on one no library directory holds fails every compile", "[consumer][handle]") {
  char dir[] = "/tmp/dtpp_handle_libXXXXXX";
  REQUIRE(::mkdtemp(dir) != nullptr);
  const std::string file = std::string(dir) + "/a.d";
  std::ofstream(file) << "#pragma D depends_on library missing.d\n";
  handle h;
  h.setopt("libdir", dir);
  CHECK_THROWS_WITH(h.compile("BEGIN { exit(0); }"),
                    "dtpp: failed to compile script <string>: Invalid library dependency in " + file + ": " +
                        dir + "/missing.d\n");
  std::remove(file.c_str());
  ::rmdir(dir);
}

TEST_CASE("compile errors carry DTrace's diagnostics", "[consumer][handle]") {
  handle h;
  const std::string text = "BEGIN\n{\n\t@a = count(;\n}\n";
  try {
    (void)h.compile(text);
    FAIL("compiled");
  } catch (const consumer::compile_error& e) {
    CHECK(e.code() == static_cast<int>(errc::compile_failed));
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].tag == "D_SYNTAX");
    CHECK(std::string(e.what()) ==
          "dtpp: failed to compile script <string>: line 3: syntax error near \";\"\n"
          "    3 | \t@a = count(;\n"
          "      | \t           ^\n");
  }
  h.setopt("errtags");
  CHECK_THROWS_WITH(h.compile("BEGIN { x = y; }"),
                    "dtpp: failed to compile script <string>: [D_IDENT_UNDEF] line 1: "
                    "failed to resolve y: Unknown variable name\n"
                    "    1 | BEGIN { x = y; }\n"
                    "      |             ^\n");

  SECTION("compile_file names the file and gives $0") {
    const auto path = script_file("BEGIN { printf(\"%s %s\\n\", $$0, $$1); exit(0); }\n");
    handle q;
    q.setopt("quiet");
    const auto prog = q.compile_file(path, {"world"});
    ::unlink(path.c_str());
    CHECK(prog.name == path);
    q.exec(prog);
    q.go();
    memory_file out;
    run(q, out.get());
    CHECK(out.text() == path + " world\n");
  }
  SECTION("a file's probe description needs a predicate or actions; a string's stands alone") {
    const auto path = script_file("BEGIN\nexit(0); }\n");
    CHECK_THROWS_WITH(h.compile_file(path),
                      "dtpp: failed to compile script " + path +
                          ": [D_SYNTAX] line 1: expected predicate and/or actions following probe description\n"
                          "    1 | BEGIN\n"
                          "      | ^~~~~\n");
    ::unlink(path.c_str());
    // At the file's end, DTrace's lexer is still reading descriptions.
    const auto bare = script_file("BEGIN\n");
    CHECK_THROWS_WITH(h.compile_file(bare), "dtpp: failed to compile script " + bare +
                                                ": [D_SYNTAX] line 2: syntax error near end-of-input\n"
                                                "    2 | \n"
                                                "      | ^\n");
    ::unlink(bare.c_str());
    CHECK(h.compile("BEGIN").name == "<string>");
  }
  SECTION("a file that cannot be read is an errno error") {
    try {
      (void)h.compile_file("/nonexistent/x.d");
      FAIL("compiled");
    } catch (const consumer::error& e) {
      CHECK(e.code() == ENOENT);
      CHECK(std::string(e.what()) == "failed to open /nonexistent/x.d: No such file or directory");
    }
  }
}

TEST_CASE("work() hands each firing and record to the callbacks", "[consumer][handle]") {
  auto h = running(tick_program);
  int firings = 0, records = 0, ends = 0;
  std::vector<std::uint32_t> clauses;
  const auto on_probe = [&](const consumer::probe_data& p) {
    ++firings;
    clauses.push_back(p.clause.id);
    CHECK(p.probe.provider == "profile");
    CHECK(p.probe.name == "tick-10ms");
    return consume::this_record;
  };
  const auto on_record = [&](const consumer::probe_data&, const consumer::record_data* r) {
    if (r)
      ++records;
    else
      ++ends;
    return consume::this_record;
  };
  memory_file out;
  run(h, out.get(), on_probe, on_record);
  CHECK(out.text() == "tick 1\ntick 2\ntick 3\ntick 4\ntick 5\n");
  CHECK(firings == 6);  // five printf firings, then the exit() clause's
  CHECK(clauses == std::vector<std::uint32_t>{1, 1, 1, 1, 1, 2});
  CHECK(records == 6);
  CHECK(ends == 6);
  CHECK(h.exit_status() == 3);
  const auto status = h.status();
  CHECK(status.exited);
  CHECK(status.stopped);
  CHECK(status.drops == 0);
  CHECK(h.work(out.get()) == work_status::done);  // and it stays done
}

TEST_CASE("a callback can skip records and firings, or abort", "[consumer][handle]") {
  memory_file out;
  SECTION("next skips what the callback dealt with itself") {
    auto h = running(tick_program);
    int exits = 0;
    const auto on_probe = [&](const consumer::probe_data& p) {
      if (p.clause.id == 2) ++exits;
      return p.clause.id == 2 ? consume::next : consume::this_record;
    };
    const auto on_record = [&](const consumer::probe_data&, const consumer::record_data* r) {
      if (r && r->action() == ir::action::printf && r->integer(0) % 2 == 0) {
        std::fprintf(out.get(), "(even %lld)\n", static_cast<long long>(r->integer(0)));
        return consume::next;
      }
      return consume::this_record;
    };
    run(h, out.get(), on_probe, on_record);
    CHECK(out.text() == "tick 1\n(even 2)\ntick 3\n(even 4)\ntick 5\n");
    CHECK(exits == 1);
    CHECK(h.exit_status() == 3);  // exit() took effect, though its firing was skipped
  }
  SECTION("abort stops work() at that record; later firings wait for the next call") {
    auto h = running(tick_program);
    int aborts = 0;
    const auto on_record = [&](const consumer::probe_data&, const consumer::record_data* r) {
      return r && r->action() == ir::action::printf && r->integer(0) == 3 ? consume::abort
                                                                          : consume::this_record;
    };
    for (;;) {
      try {
        if (h.work(out.get(), {}, on_record) == work_status::done) break;
      } catch (const consumer::error& e) {
        ++aborts;
        CHECK(e.code() == static_cast<int>(errc::aborted));
        CHECK(std::string(e.what()) == "failed to consume records: Abort explicitly directed");
      }
      h.sleep();
    }
    CHECK(aborts == 1);
    CHECK(out.text() == "tick 1\ntick 2\ntick 4\ntick 5\n");
  }
  SECTION("error is an error") {
    auto h = running(tick_program);
    const auto on_probe = [](const consumer::probe_data&) { return consume::error; };
    CHECK_THROWS_MATCHES(run(h, out.get(), on_probe), consumer::error,
                         Catch::Message("failed to consume records: a callback returned an error"));
  }
}

TEST_CASE("work() with callbacks that accept everything prints what dtrace(1) prints",
          "[consumer][handle]") {
  // tests/command/run_begin_tick_end through the handle: BEGIN, tick-100, printa, END and the
  // aggregations left for the end, exactly as its golden output (stdout) has them.
  auto h = running_script(command_test("run_begin_tick_end.d"));
  memory_file out;
  run(h, out.get());
  std::fputs("\n", out.get());  // dtrace(1)'s newline before the unprinted aggregations
  h.aggregate_print(out.get());
  const auto golden = read_file(command_test("run_begin_tick_end.out"));
  REQUIRE(golden.find("--- stderr\n") != std::string::npos);
  CHECK(out.text() == golden.substr(0, golden.find("--- stderr\n")));
  CHECK(h.exit_status() == 3);
}

TEST_CASE("the anonymous aggregation is named \"\"", "[consumer][handle]") {
  auto h = running("BEGIN { @ = count(); @ = count(); exit(0); }");
  memory_file out;
  run(h, out.get());
  const auto a = h.aggregation<dtpp::Count>("");
  REQUIRE(a.size() == 1);
  CHECK(a.value(0) == 2);
}

TEST_CASE("faults abort work() unless a fault handler hears of them", "[consumer][handle]") {
  constexpr const char* faulting = R"(#pragma D option quiet
BEGIN { x = 0; printf("before\n"); y = 1 / x; printf("not printed\n"); }
BEGIN { printf("next clause\n"); exit(0); }
)";
  memory_file out;
  SECTION("without a handler") {
    auto h = running(faulting);
    CHECK_THROWS_MATCHES(
        h.work(out.get()), consumer::error,
        Catch::Message("failed to consume records: Abort due to error: error in dt_clause_0 for probe "
                       "ID 1 (dtrace:::BEGIN): divide-by-zero at BPF pc 7"));
    CHECK(out.text() == "next clause\n");
    CHECK(h.status().faults == 1);
  }
  SECTION("with a handler") {
    auto h = running(faulting);
    std::vector<std::string> heard;
    std::vector<engine::fault> faults;
    h.handle_faults([&](const consumer::fault_data& f) {
      heard.push_back(f.message());
      faults.push_back(f.fault);
    });
    run(h, out.get());
    // The in-process engine's pc: the division is the clause's 7th operation compiled (the
    // statements x = 0, printf (no arguments) and y = ... are 1, 4 and 5; each operation counts
    // before its operands: the assignments 2 and 6, the constant 0 3, the division 7).
    CHECK(heard == std::vector<std::string>{
                       "error in dt_clause_0 for probe ID 1 (dtrace:::BEGIN): divide-by-zero at BPF pc 7"});
    REQUIRE(faults.size() == 1);
    CHECK(faults[0].epid == 1);
    CHECK(faults[0].statement == 0);
    CHECK(faults[0].pc == 7);
    CHECK(faults[0].kind == engine::fault_kind::divide_by_zero);
    CHECK(faults[0].value == 0);
    CHECK(out.text() == "next clause\n");
  }
}

TEST_CASE("a fault names dtrace-utils' statement (each probe description of each clause) and the probe",
          "[consumer][handle]") {
  // Statements: BEGIN 0, END 1 (first clause); END 2, BEGIN 3 (second); ERROR 4; BEGIN 5. The
  // in-process pc: the statement x = ... 1, the assignment 2, the division 3.
  auto h = running(R"(#pragma D option quiet
int zero;
BEGIN, END { printf("%s\n", probename); }
END, BEGIN { x = 1 / zero; }
ERROR { printf("ERROR %d %d %d %d %d\n", arg1, arg2, arg3 > 0, arg4, arg5); }
BEGIN { exit(0); }
)");
  memory_file out;
  std::vector<std::string> heard;
  h.handle_faults([&](const consumer::fault_data& f) { heard.push_back(f.message()); });
  run(h, out.get());
  CHECK(heard == std::vector<std::string>{
                     "error in dt_clause_3 for probe ID 1 (dtrace:::BEGIN): divide-by-zero at BPF pc 3",
                     "error in dt_clause_2 for probe ID 2 (dtrace:::END): divide-by-zero at BPF pc 3"});
  CHECK(out.text() == "BEGIN\nERROR 1 3 1 4 0\nEND\nERROR 2 2 1 4 0\n");
}

TEST_CASE("the handle's operations come in libdtrace's order", "[consumer][handle]") {
  handle h;
  CHECK_THROWS_MATCHES(h.go(), consumer::error,
                       Catch::Message("failed to go: no program has been executed"));
  CHECK(h.exit_status() == 0);
  h.stop();  // nothing to stop
  try {
    h.exec(h.compile("syscall::read:entry { }"));
    FAIL("executed");
  } catch (const consumer::error& e) {
    CHECK(e.code() == ENOENT);
    CHECK(std::string(e.what()) ==
          "failed to enable probes: probe description syscall::read:entry does not match any "
          "probes in this process (kernel probes need the kernel engine, dtpp::kernel::driver)");
  }
  // The program that failed stays compiled (later programs see its declarations) but never runs;
  // the next two run together, in order.
  h.exec(h.compile("BEGIN { exit(1); }"));
  h.exec(h.compile("BEGIN { exit(2); }"));
  h.go();
  CHECK_THROWS_MATCHES(h.go(), consumer::error,
                       Catch::Message("failed to go: tracing is already active"));
  CHECK_THROWS_MATCHES(h.exec(h.compile("BEGIN { exit(3); }")), consumer::error,
                       Catch::Message("failed to enable probes: tracing is already active"));
  memory_file out;
  run(h, out.get());
  CHECK(h.exit_status() == 1);
  CHECK(h.engine().probes().size() == 1);  // BEGIN, for the two executed clauses
}

TEST_CASE("programs compiled on one handle share variables and run together", "[consumer][handle]") {
  handle h;
  h.setopt("quiet");
  h.exec(h.compile("int total; BEGIN { total = 40; }"));
  h.exec(h.compile("BEGIN { total += 2; printf(\"%d\\n\", total); exit(0); }"));
  h.go();
  memory_file out;
  run(h, out.get());
  CHECK(out.text() == "42\n");
}

TEST_CASE("drops abort work() unless a drop handler hears of them", "[consumer][handle]") {
  constexpr const char* too_big =
      "BEGIN { printf(\"%s\\n\", \"this record holds a 256-byte string\"); } BEGIN { exit(0); }";
  memory_file out;
  SECTION("without a handler") {
    handle h;
    h.setopt("bufsize", "64");
    h.exec(h.compile(too_big));
    h.go();
    CHECK_THROWS_MATCHES(h.work(out.get()), consumer::error,
                         Catch::Message("failed to consume records: Abort due to drop: 1 drop on CPU 0"));
    CHECK(h.status().drops == 1);
  }
  // With a handler, plain and tagged under -x droptags.
  for (const auto& [option, message] : {std::pair{"quiet", "1 drop on CPU 0"},
                                        std::pair{"droptags", "[DTRACEDROP_PRINCIPAL] 1 drop on CPU 0"}}) {
    INFO(option);
    handle h;
    h.setopt("bufsize", "64");
    h.setopt("quiet");
    h.setopt(option);
    h.exec(h.compile(too_big));
    std::vector<std::string> heard;
    h.handle_drops([&](const consumer::drop_data& d) { heard.push_back(d.message()); });
    h.go();
    memory_file quiet_out;
    run(h, quiet_out.get());
    CHECK(heard == std::vector<std::string>{message});
    CHECK(quiet_out.text().empty());
    CHECK(h.exit_status() == 0);
  }
}

TEST_CASE("each kind of drop has libdtrace's tag", "[consumer][handle]") {
  using kind = engine::drop_count::kind;
  const auto tagged = [](kind what, std::uint64_t count) {
    return consumer::drop_data{{what, 1, count}, true}.message();
  };
  CHECK(tagged(kind::principal, 2) == "[DTRACEDROP_PRINCIPAL] 2 drops on CPU 1");
  CHECK(tagged(kind::aggregation, 1) == "[DTRACEDROP_AGGREGATION] 1 aggregation drop on CPU 1");
  CHECK(tagged(kind::dynamic, 3) == "[DTRACEDROP_DYNAMIC] 3 dynamic variable drops");
  CHECK(tagged(kind::speculative, 1) == "[DTRACEDROP_SPEC] 1 speculative drop");
  CHECK(tagged(kind::speculation_busy, 2) ==
        "[DTRACEDROP_SPECBUSY] 2 failed speculations (available buffer(s) still busy)");
  CHECK(tagged(kind::speculation_unavailable, 1) ==
        "[DTRACEDROP_SPECUNAVAIL] 1 failed speculation (no speculative buffer available)");
  CHECK(consumer::drop_data{{kind::dynamic, 0, 1}, false}.message() == "1 dynamic variable drop");
}

TEST_CASE("the engine option chooses among the handle's engines", "[consumer][handle]") {
  handle h;
  h.setopt("engine", "kernel");
  try {
    h.exec(h.compile("BEGIN { exit(0); }"));
    FAIL("executed");
  } catch (const consumer::engine_error& e) {
    CHECK(e.code() == ENOENT);
    CHECK(e.cause == "the kernel engine is not available to this consumer (it comes with dtpp::kernel)");
  }
  h.setopt("engine", "inproc");
  h.exec(h.compile("BEGIN { exit(0); }"));
  CHECK(h.engine_name() == "inproc");
}

TEST_CASE("two handles run programs on two threads at once", "[consumer][handle][threads]") {
  const auto count_to = [](int n, std::string& text) {
    handle h;
    h.setopt("quiet");
    h.exec(h.compile("tick-1ms { i++; } tick-1ms /i == " + std::to_string(n) +
                     "/ { printf(\"%d\\n\", i); exit(0); } END { @[\"ticks\"] = count(); }"));
    h.go();
    memory_file out;
    run(h, out.get());
    h.aggregate_print(out.get());
    text = out.text();
  };
  std::string a, b;
  std::thread first(count_to, 5, std::ref(a)), second(count_to, 7, std::ref(b));
  first.join();
  second.join();
  CHECK(a == "5\n  ticks                                                             1\n");
  CHECK(b == "7\n  ticks                                                             1\n");
}
