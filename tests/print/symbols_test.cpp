// The symbol tables: libelf reading, C++ demangling, /proc/PID/maps, the per-run cache.

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

#include <cstring>
#include <vector>

#include "dtpp/print/frames.hpp"
#include "dtpp/symbols/cache.hpp"

namespace symbols = dtpp::symbols;

namespace dtpp_symbols_test {
// Named functions of this binary, found by their own names in its symbol table.
struct shape {
  __attribute__((noinline)) int area(int side) const;
};
__attribute__((noinline)) int shape::area(int side) const { return side * side; }
template <typename T>
__attribute__((noinline)) T twice(T v) { return v + v; }
template int twice<int>(int);
}  // namespace dtpp_symbols_test

namespace {

std::uint64_t address_in_process(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

std::string self() {
  char path[4096];
  const auto n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

}  // namespace

TEST_CASE("C++ names are demangled and other names kept", "[symbols]") {
  CHECK(symbols::demangle("_ZN2ns5Shape4areaEv") == "ns::Shape::area()");
  CHECK(symbols::demangle("_Z5twiceIiET_S0_") == "int twice<int>(int)");
  CHECK(symbols::demangle("main") == "main");
  CHECK(symbols::demangle("_Zbroken") == "_Zbroken");
  CHECK(symbols::demangle("") == "");
}

TEST_CASE("maps lines give ranges, offsets, permissions and paths", "[symbols]") {
  const auto maps = symbols::parse_maps(
      "55d0c0a00000-55d0c0a02000 r--p 00000000 08:01 131 /usr/bin/my prog\n"
      "55d0c0a02000-55d0c0a05000 r-xp 00002000 08:01 131 /usr/bin/my prog\n"
      "7ffd1a3e4000-7ffd1a405000 rw-p 00000000 00:00 0                          [stack]\n"
      "7f0000000000-7f0000001000 rw-p 00000000 00:00 0\n"
      "not a line\n");
  REQUIRE(maps.size() == 4);
  CHECK(maps[0].start == 0x55d0c0a00000);
  CHECK(maps[0].end == 0x55d0c0a02000);
  CHECK_FALSE(maps[0].executable);
  CHECK(maps[1].executable);
  CHECK(maps[1].offset == 0x2000);
  CHECK(maps[1].path == "/usr/bin/my prog");
  CHECK(maps[2].path == "[stack]");
  CHECK(maps[3].path.empty());
  CHECK(symbols::parse_maps("").empty());
}

TEST_CASE("an object's functions come from its symbol tables, demangled", "[symbols]") {
  const auto o = symbols::object::read(self());
  REQUIRE(o.readable());
  CHECK(o.build_id().size() == 40);  // GCC and ld emit a 20-byte SHA-1 build-id
  CHECK(o.build_id() == symbols::object::build_id_of(self()));
  bool member = false, instance = false;
  for (const auto& f : o.functions()) {
    member |= f.name == "dtpp_symbols_test::shape::area(int) const" && f.mangled == "_ZNK17dtpp_symbols_test5shape4areaEi";
    instance |= f.name == "int dtpp_symbols_test::twice<int>(int)";
  }
  CHECK(member);
  CHECK(instance);
  CHECK_FALSE(symbols::object::read("/no/such/file").readable());
  CHECK_FALSE(symbols::object::read("/proc/self/maps").readable());
  CHECK(symbols::object::build_id_of("/no/such/file").empty());
}

TEST_CASE("a stripped library is named from its debug file by build-id or .gnu_debuglink, or from its MiniDebugInfo", "[symbols]") {
  namespace fs = std::filesystem;
  const fs::path dir = DTPP_DEBUGINFO_DIR;
  const std::string stripped = dir / "stripped.so";
  // Where the hidden function is, and its one name, in each reading (0 and "" when it is missing).
  struct found {
    std::uint64_t address = 0;
    std::string mangled, name;
    std::size_t functions = 0;
  };
  const auto hidden = [](const symbols::object& o) {
    found f;
    for (const auto& fn : o.functions()) {
      if (fn.name == "stripped_ns::hidden_square(long)") f = {fn.address, fn.mangled, fn.name, 0};
      CHECK(fn.name != "");
    }
    f.functions = o.functions().size();
    return f;
  };
  const auto unstripped = hidden(symbols::object::read(dir / "lib.debug", {}));
  REQUIRE(unstripped.address != 0);
  CHECK(unstripped.mangled == "_ZN11stripped_ns13hidden_squareEl");

  // Stripped, with no debug file to be found: .dynsym's exported function alone.
  const auto alone = symbols::object::read(stripped, {});
  CHECK(hidden(alone).address == 0);
  CHECK(std::any_of(alone.functions().begin(), alone.functions().end(),
                    [](const symbols::function& f) { return f.name == "stripped_lib_entry"; }));

  // The debug file under a root's .build-id/xx/rest.debug; a root without one is passed over, and
  // a file there with another build-id (this test program) is not taken for it.
  const auto id = symbols::object::build_id_of(stripped);
  REQUIRE(id.size() == 40);
  const auto root = dir / "root", wrong = dir / "wrong";
  for (const auto& r : {root, wrong}) {
    fs::remove_all(r);
    fs::create_directories(r / ".build-id" / id.substr(0, 2));
  }
  fs::copy_file(dir / "lib.debug", root / ".build-id" / id.substr(0, 2) / (id.substr(2) + ".debug"));
  fs::copy_file(self(), wrong / ".build-id" / id.substr(0, 2) / (id.substr(2) + ".debug"));
  const auto by_id = hidden(symbols::object::read(stripped, {(dir / "nowhere").string(), wrong.string(), root.string()}));
  CHECK(by_id.address == unstripped.address);
  CHECK(by_id.mangled == unstripped.mangled);
  CHECK(hidden(symbols::object::read(stripped, {wrong.string()})).address == 0);

  // By .gnu_debuglink's name, with its CRC-32 checked: beside the object, in its directory's
  // .debug/, under a root with the object's directory; a file of that name with other contents
  // is not taken, and a root is not looked in unless given.
  const auto linked_in = [&](const fs::path& place, const fs::path& debug_file) {
    fs::remove_all(place);
    fs::create_directories(debug_file.parent_path());
    fs::create_directories(place);
    fs::copy_file(dir / "linked.so", place / "linked.so");
    return (place / "linked.so").string();
  };
  CHECK(hidden(symbols::object::read(dir / "linked.so", {})).address == unstripped.address);
  const auto in_dot_debug = linked_in(dir / "a", dir / "a" / ".debug" / "lib.debug");
  fs::copy_file(dir / "lib.debug", dir / "a" / ".debug" / "lib.debug");
  CHECK(hidden(symbols::object::read(in_dot_debug, {})).address == unstripped.address);
  const auto under_root = linked_in(dir / "b", root.string() + (dir / "b" / "lib.debug").string());
  fs::copy_file(dir / "lib.debug", root.string() + (dir / "b" / "lib.debug").string());
  CHECK(hidden(symbols::object::read(under_root, {root.string()})).functions == by_id.functions);
  CHECK(hidden(symbols::object::read(under_root, {root.string()})).address == unstripped.address);
  CHECK(hidden(symbols::object::read(under_root, {wrong.string()})).address == 0);
  const auto other_contents = linked_in(dir / "c", dir / "c" / "lib.debug");
  fs::copy_file(self(), dir / "c" / "lib.debug");
  CHECK(hidden(symbols::object::read(other_contents, {})).address == 0);
  for (const char* place : {"a", "b", "c"}) fs::remove_all(dir / place);

  // MiniDebugInfo: the same function at the same address, with no debug file anywhere.
  const auto mini = symbols::object::read(dir / "minidebug.so", {});
  CHECK(hidden(mini).address == unstripped.address);
  CHECK(hidden(mini).functions == by_id.functions);
  fs::remove_all(root);
  fs::remove_all(wrong);
}

TEST_CASE("a program counter of this process is named module`function+offset", "[symbols]") {
  symbols::cache c;
  const auto pid = static_cast<std::int64_t>(::getpid());
  const auto module = self().substr(self().rfind('/') + 1);
  const auto at = address_in_process(reinterpret_cast<const void*>(&dtpp_symbols_test::twice<int>));
  CHECK(c.frame(pid, at) == module + "`int dtpp_symbols_test::twice<int>(int)");
  CHECK(c.frame(pid, at + 1) == module + "`int dtpp_symbols_test::twice<int>(int)+0x1");
  CHECK(c.frame(pid, 0x10) == "0x10");
  // Naming many frames of one object reads it once.
  const auto before = c.objects_read();
  for (int i = 0; i < 1000; ++i) (void)c.frame(pid, at + static_cast<std::uint64_t>(i % 3));
  CHECK(c.objects_read() == before);
}

TEST_CASE("a process's frames are named after it exits, once remembered", "[symbols]") {
  symbols::cache c;
  const pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  REQUIRE(child > 0);
  // The child is a copy of this process: the same function at the same address.
  const auto at = address_in_process(reinterpret_cast<const void*>(&dtpp_symbols_test::twice<int>)) + 2;
  c.remember(child);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  const auto module = self().substr(self().rfind('/') + 1);
  CHECK(c.frame(child, at) == module + "`int dtpp_symbols_test::twice<int>(int)+0x2");
  CHECK(c.frame(child, 0x10) == "0x10");
}

TEST_CASE("where a program counter is: its module, load base and function start", "[symbols]") {
  symbols::cache c;
  const auto pid = static_cast<std::int64_t>(::getpid());
  const auto at = address_in_process(reinterpret_cast<const void*>(&dtpp_symbols_test::twice<int>));
  const auto inside = c.locate(pid, at + 3);
  CHECK(inside.module == self().substr(self().rfind('/') + 1));
  REQUIRE(inside.holder != nullptr);
  CHECK(inside.holder->name == "int dtpp_symbols_test::twice<int>(int)");
  CHECK(inside.function_start == at);
  const auto other = c.locate(pid, address_in_process(reinterpret_cast<const void*>(&self)));
  CHECK(other.load_base == inside.load_base);
  const auto nowhere = c.locate(pid, 0x10);
  CHECK(nowhere.module.empty());
  CHECK(nowhere.holder == nullptr);
}

TEST_CASE("frames are named by their mangled C++ names under -x mangled", "[symbols]") {
  symbols::cache c;
  const auto pid = static_cast<std::int64_t>(::getpid());
  const auto module = self().substr(self().rfind('/') + 1);
  const auto at = address_in_process(reinterpret_cast<const void*>(&dtpp_symbols_test::twice<int>));
  c.name_mangled(true);
  CHECK(c.frame(pid, at + 1) == module + "`_ZN17dtpp_symbols_test5twiceIiEET_S1_+0x1");
  c.name_mangled(false);
  CHECK(c.frame(pid, at + 1) == module + "`int dtpp_symbols_test::twice<int>(int)+0x1");
}

TEST_CASE("frames are named by object and offset into their mapping under -x noresolve", "[symbols]") {
  symbols::cache c;
  const auto pid = static_cast<std::int64_t>(::getpid());
  const auto module = self().substr(self().rfind('/') + 1);
  const auto at = address_in_process(reinterpret_cast<const void*>(&dtpp_symbols_test::twice<int>));
  std::uint64_t mapping_start = 0;
  for (const auto& m : symbols::read_maps(pid))
    if (at >= m.start && at < m.end) mapping_start = m.start;
  REQUIRE(mapping_start != 0);
  char offset[32];
  std::snprintf(offset, sizeof offset, ":0x%llx", static_cast<unsigned long long>(at + 1 - mapping_start));
  c.name_unresolved(true);
  CHECK(c.frame(pid, at + 1) == module + offset);
  CHECK(c.frame(pid, 0x10) == "0x10");  // in no mapping: the address alone, as before
  c.name_unresolved(false);
  CHECK(c.frame(pid, at + 1) == module + "`int dtpp_symbols_test::twice<int>(int)+0x1");
}

TEST_CASE("naming 1000 user stacks of 20 frames reads each mapped file once", "[symbols]") {
  symbols::cache c;
  const auto pid = static_cast<std::int64_t>(::getpid());
  std::set<std::string> files;
  for (const auto& m : symbols::read_maps(pid))
    if (!m.path.empty() && m.path.front() == '/') files.insert(m.path);
  const auto twice = address_in_process(reinterpret_cast<const void*>(&dtpp_symbols_test::twice<int>));
  const auto write = address_in_process(reinterpret_cast<const void*>(&::write));
  std::size_t named = 0;
  for (std::uint64_t stack = 0; stack < 1000; ++stack)
    for (std::uint64_t frame = 0; frame < 20; ++frame)
      named += !c.frame(pid, (frame % 2 ? write : twice) + (stack + frame) % 8).empty();
  CHECK(named == 20000);
  CHECK(c.objects_read() == files.size());
}

TEST_CASE("usym, uaddr and umod records print a function, an address and a module, and key by them", "[symbols]") {
  using dtpp::agg::symbol_form;
  const auto module = self().substr(self().rfind('/') + 1);
  const auto at = address_in_process(reinterpret_cast<const void*>(&dtpp_symbols_test::twice<int>));
  const auto record = [](std::uint64_t pc) {
    const std::uint64_t words[2] = {static_cast<std::uint64_t>(::getpid()), pc};
    return std::string(reinterpret_cast<const char*>(words), sizeof words);
  };
  const auto pc_of = [](const std::string& r) {
    std::uint64_t pc = 0;
    std::memcpy(&pc, r.data() + 8, 8);
    return pc;
  };
  const auto r = record(at + 2);
  CHECK(dtpp::print::symbol_name(symbol_form::function, true, r) == module + "`int dtpp_symbols_test::twice<int>(int)");
  CHECK(dtpp::print::symbol_name(symbol_form::address, true, r) == module + "`int dtpp_symbols_test::twice<int>(int)+0x2");
  CHECK(dtpp::print::symbol_name(symbol_form::module, true, r) == module);
  CHECK(dtpp::print::symbol_name(symbol_form::function, true, record(0x10)) == "0x10");
  CHECK(dtpp::print::symbol_name(symbol_form::module, true, record(0x10)) == "0x10");
  CHECK(dtpp::print::symbol_name(symbol_form::function, false, std::string(8, '\0')) == "0x0");
  CHECK(dtpp::print::stack_frames(true, r, symbol_form::address) ==
        std::vector<std::string>{module + "`int dtpp_symbols_test::twice<int>(int)+0x2"});
  // Keys: a function's addresses are one usym() key, one module's functions one umod() key;
  // uaddr() keys stay apart.
  auto by_function = r, by_address = r, by_module = r;
  dtpp::print::canonical_symbol(symbol_form::function, true, by_function);
  dtpp::print::canonical_symbol(symbol_form::address, true, by_address);
  dtpp::print::canonical_symbol(symbol_form::module, true, by_module);
  CHECK(pc_of(by_function) == at);
  CHECK(pc_of(by_address) == at + 2);
  auto other_module = record(address_in_process(reinterpret_cast<const void*>(&self)));
  dtpp::print::canonical_symbol(symbol_form::module, true, other_module);
  CHECK(other_module == by_module);
  auto unknown = record(0x10);
  dtpp::print::canonical_symbol(symbol_form::function, true, unknown);
  CHECK(pc_of(unknown) == 0x10);
}
