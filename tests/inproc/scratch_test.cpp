// The in-process engine's scratch memory (alloca, copyin, bcopy, copyinto, stores through
// pointers), reads of the process's memory, and struct and union variables: the kernel engine's
// results and faults, per firing thread.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "../fake_types.hpp"
#include "../memory_file.hpp"
#include "../scratch_clauses.hpp"
#include "compiled.hpp"
#include "dtpp/consumer/handle.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/inproc/probe.hpp"

using namespace dtpp;

namespace {

// Runs a program in-process to its end and returns its output, then "--- faults" and each fault
// (an invalid address without the address, which differs from run to run).
template <class Body>
std::string run(const std::string& text, Body body) {
  consumer::handle h;
  std::string faults;
  h.handle_faults([&](const consumer::fault_data& f) {
    const auto what = f.what();
    faults += (what.rfind("invalid address", 0) == 0 ? std::string("invalid address") : what) + "\n";
  });
  h.exec(h.compile("#pragma D option quiet\n" + text));
  REQUIRE(h.engine_name() == "inproc");
  h.go();
  body();
  h.stop();
  memory_file out;
  while (h.work(out.get()) == consumer::work_status::okay) {
  }
  h.aggregate_print(out.get());
  return out.text() + (faults.empty() ? "" : "--- faults\n" + faults);
}
std::string run(const std::string& text) {
  return run(text, [] {});
}

[[gnu::noinline]] void bytes_at(const void* p, std::int64_t n) {
  const auto* bytes = static_cast<const std::uint8_t*>(p);
  DTPP_PROBE(scratchtest, bytes, bytes, n);
}

}  // namespace

TEST_CASE("stores through pointers land in alloca()'d scratch only, bcopy() and its faults, per clause", "[inproc][scratch]") {
  // The kernel engine's test (tests/kernel/kernel_test.cpp) on the same clauses; the ERROR clause
  // prints the fault's code and value (not an address, which differs from run to run).
  CHECK(run(std::string(testing::scratch_clauses) +
            "ERROR { printf(\"fault %d %d\\n\", arg4, arg4 == 1 ? 0 : arg5); }") ==
        "-9223372036854775808 8 ab z\nfault 1 0\nfault 1 0\nfault 1 0\nfault 10 -1\nBEGIN\nfault 5 17\nfault 10 16\n"
        "fault 1 0\n--- faults\ninvalid address\ninvalid address\ninvalid address\ninvalid size (0xffffffffffffffff)\n"
        "out of scratch space\ninvalid size (0x10)\ninvalid address\n");
}

TEST_CASE("loads stores and copies through pointers into scratch are bounds-checked as dtrace-utils checks alloca()'d ones", "[inproc][scratch]") {
  const auto text = run(testing::scratch_bounds, [] {});
  CHECK(text.substr(0, text.find("--- faults\n")) == testing::scratch_bounds_output);
  CHECK(text.substr(text.find("--- faults\n")) ==
        "--- faults\ninvalid address\ninvalid address\ninvalid size (0x8)\ninvalid address\ninvalid address\n"
        "invalid address\ninvalid address\ninvalid address\ninvalid size (0x8)\ninvalid size (0x2)\n");
}

TEST_CASE("an invalid address is the one the store aimed at", "[inproc][scratch]") {
  CHECK(run("BEGIN { x = (int *)alloca(4); *(x - 1) = 1; }\n"
            "BEGIN { c = (char *)alloca(15); c[16] += 1; }\n"
            "BEGIN { c = (char *)alloca(8); c[8]++; }\n"
            "BEGIN { exit(0); }\n"
            "ERROR { printf(\"%d %d\\n\", arg4, (long)(arg5 - (arg2 == 0 ? (uintptr_t)x : (uintptr_t)c))); }") ==
        "1 -4\n1 16\n1 8\n--- faults\ninvalid address\ninvalid address\ninvalid address\n");
}

TEST_CASE("scratchsize bounds alloca() and copyin(): zero, all of it, one more, negative, INT64_MAX", "[inproc][scratch]") {
  // scratchsize is rounded up to 8: 20 is 24.
  CHECK(run("#pragma D option scratchsize=20\n"
            "BEGIN { n = 24; a = alloca(n); b = alloca(0); printf(\"%d %d\\n\", (uintptr_t)b - (uintptr_t)a, *(long *)((uintptr_t)a + 16)); }\n"
            "BEGIN { a = alloca(1); b = alloca(1); c = alloca(0); printf(\"%d %d\\n\", (uintptr_t)b - (uintptr_t)a, (uintptr_t)c - (uintptr_t)b); }\n"
            "BEGIN { alloca(8); n = 17; alloca(n); printf(\"not here\"); }\n"
            "BEGIN { n = 25; alloca(n); }\n"
            "BEGIN { n = -1; alloca(n); }\n"
            "BEGIN { m = 0x7fffffffffffffff; copyin(0, m); }\n"
            "BEGIN { n = -8; copyin(0, n); }\n"
            "BEGIN { p = alloca(0); *(char *)p = 1; }\n"
            "BEGIN { exit(0); }\n"
            "ERROR { printf(\"fault %d %d\\n\", arg4, arg4 == 1 ? 0 : arg5); }") ==
        "24 0\n8 8\nfault 5 17\nfault 5 25\nfault 5 -1\nfault 5 9223372036854775807\nfault 5 -8\nfault 1 0\n"
        "--- faults\nout of scratch space\nout of scratch space\nout of scratch space\nout of scratch space\n"
        "out of scratch space\ninvalid address\n");
}

TEST_CASE("copyin(), copyinto() and bcopy() read the process's memory, an unreadable source faults", "[inproc][scratch]") {
  const char text[] = "/index.html";
  const std::int32_t words[2] = {-7, 0x41424344};
  // A string read from scratch stays within the bytes taken: copyin()'s 5 bytes give 5
  // characters, and 0 bytes hold no string at all (a fault at that scratch address, as a load
  // past alloca()'s top faults in DTrace).
  CHECK(run("scratchtest:::bytes /arg1 == 12/ {"
            "  printf(\"[%s][%s]\\n\", stringof(copyin(arg0, 5)), (string)copyin(arg0 + 1, 5));"
            "  this->a = alloca(8); printf(\"[%s] %d\\n\", stringof(this->a), *(long *)this->a); }\n"
            "scratchtest:::bytes /arg1 == 12/ { trace(stringof(copyin(arg0, 0))); }\n"
            "scratchtest:::bytes /arg1 == 8/ {"
            "  this->p = (int *)copyin(arg0, 8); printf(\"%d %x\\n\", this->p[0], this->p[1]);"
            "  copyinto(arg0 + 4, 4, this->p); bcopy((void *)arg0, this->p + 1, 4);"
            "  printf(\"%x %d\\n\", this->p[0], this->p[1]); }\n"
            "scratchtest:::bytes /arg1 == 0/ { copyin(arg0, 4); }\n"
            "scratchtest:::bytes /arg1 == 0/ { copyinto(arg0, 4, alloca(4)); }\n"
            "scratchtest:::bytes /arg1 == 0/ { bcopy((void *)arg0, alloca(4), 4); }\n"
            "scratchtest:::bytes /arg1 == 0/ { trace(*(int *)arg0); }\n"
            "scratchtest:::bytes /arg1 == 0/ { trace(stringof((char *)arg0)); }\n"
            "ERROR { printf(\"fault %d %s\\n\", arg4, arg5 == 16 ? \"16\" : \"in scratch\"); }",
            [&] {
              bytes_at(text, 12);
              bytes_at(words, 8);
              bytes_at(reinterpret_cast<const void*>(16), 0);  // unmapped
            }) ==
        "[/inde][index]\n[] 0\nfault 1 in scratch\n-7 41424344\n41424344 -7\nfault 1 16\nfault 1 16\nfault 1 16\n"
        "fault 1 16\nfault 1 16\n--- faults\ninvalid address\ninvalid address\ninvalid address\ninvalid address\n"
        "invalid address\ninvalid address\n");
}

TEST_CASE("threads firing at once each have their own scratch memory", "[inproc][scratch]") {
  constexpr int firings = 20000;
  std::latch start(2);
  const auto fire = [&](std::int64_t n) {
    start.arrive_and_wait();
    for (int i = 0; i < firings; ++i) bytes_at(nullptr, n);
  };
  // No lock: the clause touches only clause-locals, scratch and an aggregation.
  CHECK(run("scratchtest:::bytes {"
            "  this->p = (long *)alloca(8); *this->p = arg1; this->q = (long *)alloca(16); this->q[1] = 2 * arg1;"
            "  this->q[0] = *this->p; @[this->q[1] - this->q[0] == arg1 && *this->p == arg1 ? \"same\" : \"mixed\"] = count(); }\n"
            "END { printa(\"%s %@d\\n\", @); }",
            [&] {
              std::thread a(fire, 1), b(fire, 2);
              a.join();
              b.join();
            }) == "same 40000\n");
}

TEST_CASE("struct and union variables hold their bytes in-process: global, self-> and this->", "[inproc][scratch]") {
  CHECK(run("struct inner { char c; long l; };\n"
            "struct s { int i; struct inner in; short a[3]; char name[4]; } rec;\n"
            "union u { int i; char c[4]; } un;\n"
            "self struct s mine;\n"
            "this struct s local;\n"
            "BEGIN { rec.i = 7; rec.i++; rec.in.l = -9223372036854775807 - 1; rec.in.c = 'x'; rec.a[2] = -300;"
            "  rec.name[0] = 'a'; rec.name[1] = 'b'; un.i = 0x41424344; self->mine.i = 5; self->mine.i *= 3;"
            "  this->local.in.l = 9223372036854775807;"
            "  printf(\"%d %d %c %d %d %d %d %s %c%c %d\\n\", rec.i, rec.in.l, rec.in.c, rec.a[2], rec.a[1], self->mine.i,"
            "         sizeof(rec), stringof(rec.name), un.c[0], un.c[3], this->local.in.l); }\n"
            "BEGIN { i = 2; printf(\"%d %d %d %d %d\\n\", rec.i, self->mine.i, rec.a[i], this->local.in.l, sizeof(un)); }\n"
            "BEGIN { i = 2; rec.a[i] = 1; i = 3; rec.a[i] = 2; }\n"
            "BEGIN { printf(\"%d %d\\n\", rec.a[2], rec.a[1]); exit(0); }") ==
        "8 -9223372036854775808 x -300 0 15 34 ab DA 9223372036854775807\n8 15 -300 9223372036854775807 4\n1 0\n"
        "--- faults\nindex out of bounds (3)\n");
}

TEST_CASE("each thread has its own self-> struct, within dynvarsize", "[inproc][scratch]") {
  CHECK(run("struct s { long n; long m; };\n"
            "self struct s mine;\n"
            "scratchtest:::bytes { self->mine.n += arg1; self->mine.m++; }\n"
            "scratchtest:::bytes /self->mine.m == 3/ { printf(\"%d\\n\", self->mine.n); }",
            [] {
              std::thread a([] { for (int i = 1; i <= 3; ++i) bytes_at(nullptr, i); });
              a.join();
              std::thread b([] { for (int i = 1; i <= 3; ++i) bytes_at(nullptr, 10 * i); });
              b.join();
            }) == "6\n60\n");

  // A thread's struct variable that finds no room is a dynamic variable drop at each store, and
  // reads as zero (a read makes no variable, so drops nothing). Each costs its 16 bytes: one fits.
  inproc::engine engine(compiled("struct s { long n; long m; }; self struct s mine, other;\n"
                                 "BEGIN { self->mine.n = 5; self->other.n = 6; trace(self->other.n); }"),
                        {.dynvarsize = 16});
  engine.go();
  const auto records = engine.take_records();
  REQUIRE(records.size() == 1);
  CHECK(records[0].data == std::vector<std::byte>(8, std::byte{0}));
  const auto drops = engine.take_drops();
  REQUIRE(drops.size() == 1);
  CHECK(drops[0].what == inproc::drop_count::kind::dynamic);
  CHECK(drops[0].count == 1);
}

TEST_CASE("members of D's own structs read through pointers into the process", "[inproc][scratch]") {
  struct {
    std::int32_t a;
    char name[4];
    std::int64_t b;
  } object{-5, {'x', 'y', 'z', 'w'}, INT64_MIN};
  CHECK(run("struct pair { int a; char name[4]; long long b; };\n"
            "scratchtest:::bytes /arg1/ { this->p = (struct pair *)arg0;"
            "  printf(\"%d %s %d %d\\n\", this->p->a, stringof(this->p->name), this->p->b, this->p[0].name[3]); }\n"
            "scratchtest:::bytes /!arg1/ { trace(((struct pair *)arg0)->b); }\n"
            "ERROR { printf(\"fault %d %d\\n\", arg4, arg5); }",
            [&] {
              bytes_at(&object, 1);
              bytes_at(reinterpret_cast<const void*>(16), 0);
            }) == "-5 xyzw -9223372036854775808 119\nfault 1 24\n--- faults\ninvalid address\n");
}

TEST_CASE("the kernel's types stay the kernel engine's", "[inproc][scratch]") {
  testing::fake_types types;
  const d::source_file source("t.d", "BEGIN { trace(((struct task_struct *)arg0)->pid); }");
  d::compile_options options;
  options.types = &types;
  auto result = d::compile(source, options);
  REQUIRE(result.errors.empty());
  CHECK_THROWS_WITH(inproc::engine(result.program),
                    Catch::Contains("the kernel's types, memory and registers (curthread, struct members, uregs[]) are "
                                    "not available to the in-process engine"));
}
