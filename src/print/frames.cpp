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

namespace {

// The address of a symbol record, and its process id when `user`.
std::pair<std::int64_t, std::uint64_t> symbol_record(bool user, std::string_view record) {
  std::uint64_t words[2] = {};
  std::memcpy(words, record.data(), std::min<std::size_t>(record.size(), user ? 16 : 8));
  return user ? std::pair{static_cast<std::int64_t>(words[0]), words[1]} : std::pair{std::int64_t{0}, words[0]};
}

// The kernel module holding pc, and the address of its first symbol.
const detail::symbol* kernel_module_start(std::uint64_t pc) {
  const auto& table = detail::kernel_symbols();
  const auto* s = symbols::entry_holding(table, pc);
  if (!s) return nullptr;
  while (s != table.data() && (s - 1)->module == s->module) --s;
  return s;
}

}  // namespace

std::string symbol_name(agg::symbol_form form, bool user, std::string_view record) {
  using agg::symbol_form;
  const auto [pid, pc] = symbol_record(user, record);
  if (!user) {
    const auto* s = symbols::entry_holding(detail::kernel_symbols(), pc);
    if (!s) return detail::hex(pc);
    return form == symbol_form::module ? s->module
           : form == symbol_form::address ? detail::named(s->module, *s, pc)
                                          : s->module + "`" + s->name;
  }
  if (form == symbol_form::address) return user_frame(pid, pc);
  const auto where = symbols::shared_cache().locate(pid, pc);
  if (form == symbol_form::module) return where.module.empty() ? detail::hex(pc) : where.module;
  return user_frame(pid, where.holder ? where.function_start : pc);
}

void canonical_symbol(agg::symbol_form form, bool user, std::string& record) {
  using agg::symbol_form;
  if (form == symbol_form::none || form == symbol_form::address) return;
  auto [pid, pc] = symbol_record(user, record);
  if (user) {
    const auto where = symbols::shared_cache().locate(pid, pc);
    if (form == symbol_form::module && !where.module.empty()) pc = where.load_base;
    if (form == symbol_form::function && where.holder) pc = where.function_start;
  } else if (form == symbol_form::module) {
    if (const auto* s = kernel_module_start(pc)) pc = s->address;
  } else if (const auto* s = symbols::entry_holding(detail::kernel_symbols(), pc)) {
    pc = s->address;
  }
  std::memcpy(record.data() + (user ? 8 : 0), &pc, std::min<std::size_t>(8, record.size() - (user ? 8 : 0)));
}

std::vector<std::string> stack_frames(bool user, std::string_view record, agg::symbol_form form) {
  if (form != agg::symbol_form::none) return {symbol_name(form, user, record)};
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
