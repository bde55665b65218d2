// Stack frame names from kallsyms, /proc/PID/maps and ELF symbol tables.

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include "dtpp/print/frames.hpp"

namespace dtpp::print {
namespace detail {

struct symbol {
  std::uint64_t address = 0;
  std::uint64_t size = 0;  // 0: unknown (kallsyms), up to the next symbol
  std::string name;
  std::string module;  // kernel symbols only
  friend bool operator<(const symbol& a, const symbol& b) { return a.address < b.address; }
};

// The symbol holding `address` in a sorted table: the last one at or below it, if the address is
// within its size (when the size is known).
inline const symbol* symbol_at(const std::vector<symbol>& table, std::uint64_t address) {
  auto it = std::upper_bound(table.begin(), table.end(), address,
                             [](std::uint64_t a, const symbol& s) { return a < s.address; });
  if (it == table.begin()) return nullptr;
  --it;
  if (it->size != 0 && address >= it->address + it->size) return nullptr;
  return &*it;
}

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

// What an ELF file says about its code: where its loaded segments are, and its functions (the
// full symbol table when it has one, the dynamic one otherwise).
struct elf_image {
  struct segment {
    std::uint64_t offset, size, address;
  };
  std::vector<segment> segments;
  std::vector<symbol> functions;

  std::optional<std::uint64_t> address_of(std::uint64_t file_offset) const {
    for (const auto& s : segments)
      if (file_offset >= s.offset && file_offset < s.offset + s.size) return file_offset - s.offset + s.address;
    return std::nullopt;
  }
};

inline elf_image read_elf(const std::string& path) {
  elf_image image;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return image;
  struct stat st{};
  void* map = ::fstat(fd, &st) == 0 && st.st_size > 0
                  ? ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
                  : MAP_FAILED;
  ::close(fd);
  if (map == MAP_FAILED) return image;
  const auto* base = static_cast<const unsigned char*>(map);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  // Every table is checked to lie inside the file before it is read.
  const auto inside = [&](std::uint64_t offset, std::uint64_t count, std::uint64_t each) {
    return each != 0 && offset <= size && count <= (size - offset) / each;
  };
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(base);
  if (size >= sizeof(Elf64_Ehdr) && std::memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
      eh->e_ident[EI_CLASS] == ELFCLASS64) {
    if (inside(eh->e_phoff, eh->e_phnum, sizeof(Elf64_Phdr)))
      for (std::uint16_t i = 0; i < eh->e_phnum; ++i) {
        const auto& ph = reinterpret_cast<const Elf64_Phdr*>(base + eh->e_phoff)[i];
        if (ph.p_type == PT_LOAD) image.segments.push_back({ph.p_offset, ph.p_filesz, ph.p_vaddr});
      }
    if (inside(eh->e_shoff, eh->e_shnum, sizeof(Elf64_Shdr))) {
      const auto* sections = reinterpret_cast<const Elf64_Shdr*>(base + eh->e_shoff);
      const Elf64_Shdr* table = nullptr;
      for (std::uint16_t i = 0; i < eh->e_shnum; ++i)
        if (sections[i].sh_type == SHT_SYMTAB || (sections[i].sh_type == SHT_DYNSYM && !table)) table = &sections[i];
      if (table && table->sh_link < eh->e_shnum && inside(table->sh_offset, table->sh_size / sizeof(Elf64_Sym), sizeof(Elf64_Sym))) {
        const auto& strings = sections[table->sh_link];
        const auto* symbols = reinterpret_cast<const Elf64_Sym*>(base + table->sh_offset);
        if (inside(strings.sh_offset, strings.sh_size, 1))
          for (std::uint64_t i = 0; i < table->sh_size / sizeof(Elf64_Sym); ++i) {
            const auto& s = symbols[i];
            const auto type = ELF64_ST_TYPE(s.st_info);
            if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_value == 0 || s.st_name >= strings.sh_size) continue;
            const auto* name = reinterpret_cast<const char*>(base + strings.sh_offset + s.st_name);
            image.functions.push_back({s.st_value, s.st_size, std::string(name, ::strnlen(name, strings.sh_size - s.st_name)), {}});
          }
      }
    }
  }
  ::munmap(map, static_cast<std::size_t>(st.st_size));
  std::sort(image.functions.begin(), image.functions.end());
  return image;
}

struct mapping {
  std::uint64_t start, end, offset;
  std::string path;
};

inline std::vector<mapping> read_maps(std::int64_t pid) {
  std::vector<mapping> maps;
  std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/maps").c_str(), "re");
  if (!f) return maps;
  char line[4096 + 128];
  while (std::fgets(line, sizeof line, f)) {
    unsigned long long start = 0, end = 0, offset = 0;
    int path_at = 0;
    if (std::sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &start, &end, &offset, &path_at) < 3) continue;
    std::string path = line + path_at;
    while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
    maps.push_back({start, end, offset, std::move(path)});
  }
  std::fclose(f);
  return maps;
}

// Maps of processes and images of files, kept for the consumer's life: a process's maps are read
// again when a program counter falls outside all of them (a library loaded since).
struct user_symbols {
  std::mutex mutex;
  std::map<std::int64_t, std::vector<mapping>> maps;
  std::map<std::string, elf_image> images;

  const mapping* find(std::int64_t pid, std::uint64_t pc) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      auto it = maps.find(pid);
      if (it == maps.end() || attempt == 1) it = maps.insert_or_assign(pid, read_maps(pid)).first;
      for (const auto& m : it->second)
        if (pc >= m.start && pc < m.end) return &m;
    }
    return nullptr;
  }
};

inline user_symbols& user_cache() {
  static user_symbols cache;
  return cache;
}

}  // namespace detail

std::string kernel_frame(std::uint64_t pc) {
  const auto* s = detail::symbol_at(detail::kernel_symbols(), pc);
  return s ? detail::named(s->module, *s, pc) : detail::hex(pc);
}

std::string user_frame(std::int64_t pid, std::uint64_t pc) {
  auto& cache = detail::user_cache();
  std::lock_guard lock(cache.mutex);
  const auto* m = cache.find(pid, pc);
  if (!m || m->path.empty() || m->path.front() != '/') return detail::hex(pc);
  const auto object = m->path.substr(m->path.rfind('/') + 1);
  auto image = cache.images.find(m->path);
  if (image == cache.images.end()) image = cache.images.emplace(m->path, detail::read_elf(m->path)).first;
  const auto address = image->second.address_of(pc - m->start + m->offset);
  const auto* s = address ? detail::symbol_at(image->second.functions, *address) : nullptr;
  return s ? detail::named(object, *s, *address) : object + "`" + detail::hex(pc);
}

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
