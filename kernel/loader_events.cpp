#include "loader_events.hpp"

#include "dtpp/symbols/cache.hpp"
#include "insn.hpp"

#include <dirent.h>
#include <signal.h>
#include <time.h>

#include <fstream>
#include <iterator>

namespace dtpp::kernel {

std::optional<loader_breakpoint> loader_breakpoint_in(const std::string& path) {
  // Only the loader defines it (glibc's ld.so exports it, GLIBC_PRIVATE).
  const auto& object = symbols::shared_cache().object_at(path);
  for (const auto& f : object.functions())
    if (f.mangled == "_dl_debug_state")
      if (const auto offset = object.file_offset_of(f.address)) return loader_breakpoint{path, *offset};
  return std::nullopt;
}

std::optional<loader_breakpoint> find_loader_breakpoint(std::int64_t pid) {
  for (const auto& m : symbols::read_maps(pid)) {
    const auto base = m.path.substr(m.path.rfind('/') + 1);
    if (!m.executable || base.rfind("ld-", 0) != 0) continue;
    if (auto at = loader_breakpoint_in(m.path)) return at;
  }
  return std::nullopt;
}

std::vector<bpf_insn> loader_program(int counters, std::uint32_t slot) {
  emitter e;
  const auto stop = e.make_label();
  e.store_imm(r10, -8, static_cast<std::int32_t>(slot), 4);
  e.load_map(r1, counters);
  e.mov(r2, r10);
  e.alu(BPF_ADD, r2, -8);
  e.call(BPF_FUNC_map_lookup_elem);
  e.jump_if(BPF_JEQ, r0, 0, stop);
  e.mov(r1, 1);
  e.atomic_add(r0, 0, r1);
  e.bind(stop);
  e.mov(r1, SIGSTOP);
  e.call(BPF_FUNC_send_signal);
  e.mov(r0, 0);
  e.exit();
  return e.finish();
}

std::vector<bpf_insn> process_noting_program(int pids) {
  emitter e;
  e.call(BPF_FUNC_get_current_pid_tgid);
  e.alu(BPF_RSH, r0, 32);
  e.store(r10, -4, r0, 4);
  e.store_imm(r10, -8, 1, 4);
  e.load_map(r1, pids);
  e.mov(r2, r10);
  e.alu(BPF_ADD, r2, -4);
  e.mov(r3, r10);
  e.alu(BPF_ADD, r3, -8);
  e.mov(r4, BPF_ANY);
  e.call(BPF_FUNC_map_update_elem);
  e.mov(r0, 0);
  e.exit();
  return e.finish();
}

namespace {

// The state letter of a /proc stat file ("pid (comm) S ..."; the command may hold spaces and
// parentheses: the state follows the last ')'); 0 when it cannot be read.
char state_in(const std::string& path) {
  std::ifstream in(path);
  const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() ? stat[close + 2] : 0;
}

}  // namespace

char wait_until_stopped(std::int64_t pid) {
  // Any thread: the one that called the loader stops first. One stopped by the signal ('T') wins
  // over one stopped for its tracer ('t'): a -c command's other threads are not traced, and only
  // SIGCONT lets them go.
  const auto tasks = "/proc/" + std::to_string(pid) + "/task";
  for (int tries = 0; tries < 1000; ++tries) {
    DIR* d = ::opendir(tasks.c_str());
    if (!d) return 0;
    char found = 0;
    while (const auto* e = ::readdir(d)) {
      if (e->d_name[0] == '.') continue;
      const char state = state_in(tasks + "/" + e->d_name + "/stat");
      if (state == 'T' || (state == 't' && found == 0)) found = state;
    }
    ::closedir(d);
    if (found) return found;
    if (const char state = state_in("/proc/" + std::to_string(pid) + "/stat"); state == 'Z' || state == 'X' || state == 0)
      return 0;
    const timespec millisecond{0, 1000000};
    ::nanosleep(&millisecond, nullptr);
  }
  return 0;
}

}  // namespace dtpp::kernel
