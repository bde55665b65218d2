#include "loader_events.hpp"

#include "dtpp/symbols/cache.hpp"
#include "insn.hpp"

#include <signal.h>
#include <time.h>

#include <fstream>
#include <iterator>

namespace dtpp::kernel {

std::optional<loader_breakpoint> find_loader_breakpoint(std::int64_t pid) {
  auto& symbols = symbols::shared_cache();
  for (const auto& m : symbols::read_maps(pid)) {
    // Only the loader defines it (glibc's ld.so exports it, GLIBC_PRIVATE).
    const auto base = m.path.substr(m.path.rfind('/') + 1);
    if (!m.executable || base.rfind("ld-", 0) != 0) continue;
    const auto& object = symbols.object_at(m.path);
    for (const auto& f : object.functions())
      if (f.mangled == "_dl_debug_state")
        if (const auto offset = object.file_offset_of(f.address)) return loader_breakpoint{m.path, *offset};
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

char wait_until_stopped(std::int64_t pid) {
  const auto path = "/proc/" + std::to_string(pid) + "/stat";
  for (int tries = 0; tries < 1000; ++tries) {
    std::ifstream in(path);
    if (!in) return 0;
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // "pid (comm) S ...": the command may hold spaces and parentheses, the state follows the last ')'.
    const auto close = stat.rfind(')');
    const char state = close != std::string::npos && close + 2 < stat.size() ? stat[close + 2] : 0;
    if (state == 'T' || state == 't') return state;
    if (state == 'Z' || state == 'X' || state == 0) return 0;
    const timespec millisecond{0, 1000000};
    ::nanosleep(&millisecond, nullptr);
  }
  return 0;
}

}  // namespace dtpp::kernel
