// Stack frame names: kernel ones from kallsyms, user ones from the run's symbol cache.

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "dtpp/print/frames.hpp"
#include "dtpp/symbols/cache.hpp"

namespace dtpp::print {
namespace detail {

struct symbol {
  std::uint64_t address = 0;
  std::uint64_t size = 0;  // 0: unknown (kallsyms), up to the next symbol
  std::string name;
  std::string module;  // kernel symbols only
  friend bool operator<(const symbol& a, const symbol& b) { return a.address < b.address; }
};

inline std::string hex(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, v);
  return text;
}

inline std::string named(const std::string& module, const symbol& s, std::uint64_t pc) {
  return pc > s.address ? module + "`" + s.name + "+" + hex(pc - s.address) : module + "`" + s.name;
}

// /proc/kallsyms, read once: addresses are 0 without the privilege to see them, and then no
// frame is named.
inline const std::vector<symbol>& kernel_symbols() {
  static const std::vector<symbol> table = [] {
    std::vector<symbol> t;
    std::FILE* f = std::fopen("/proc/kallsyms", "re");
    if (!f) return t;
    char line[512];
    while (std::fgets(line, sizeof line, f)) {
      unsigned long long address = 0;
      char type = 0, name[256] = {}, module[128] = {};
      const int fields = std::sscanf(line, "%llx %c %255s [%127[^]]]", &address, &type, name, module);
      if (fields < 3 || address == 0) continue;
      if (type != 't' && type != 'T' && type != 'w' && type != 'W') continue;  // code only
      t.push_back({address, 0, name, fields == 4 ? module : "vmlinux"});
    }
    std::fclose(f);
    std::sort(t.begin(), t.end());
    return t;
  }();
  return table;
}

}  // namespace detail

std::string kernel_frame(std::uint64_t pc) {
  const auto* s = symbols::entry_holding(detail::kernel_symbols(), pc);
  return s ? detail::named(s->module, *s, pc) : detail::hex(pc);
}

std::string user_frame(std::int64_t pid, std::uint64_t pc) { return symbols::shared_cache().frame(pid, pc); }

std::vector<std::string> stack_frames(bool user, std::string_view record) {
  std::vector<std::string> frames;
  const auto word = [&](std::size_t i) {
    std::uint64_t w = 0;
    std::memcpy(&w, record.data() + 8 * i, 8);
    return w;
  };
  const std::size_t words = record.size() / 8;
  if (user && words == 0) return frames;
  const auto pid = user ? static_cast<std::int64_t>(word(0)) : 0;
  for (std::size_t i = user ? 1 : 0; i < words && word(i) != 0; ++i)
    frames.push_back(user ? user_frame(pid, word(i)) : kernel_frame(word(i)));
  return frames;
}

}  // namespace dtpp::print
