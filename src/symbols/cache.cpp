// The run's symbol tables: objects by path and build-id, processes' mappings kept.

#include "dtpp/symbols/cache.hpp"

#include <cinttypes>
#include <cstdio>

namespace dtpp::symbols {
namespace {

std::string hex(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, v);
  return text;
}

bool is_file(const mapping& m) { return !m.path.empty() && m.path.front() == '/'; }

}  // namespace

const object& cache::object_locked(const std::string& path) {
  auto key = std::make_pair(path, object::build_id_of(path));
  auto it = objects_.find(key);
  if (it == objects_.end()) {
    ++reads_;
    it = objects_.emplace(std::move(key), std::make_unique<object>(object::read(path))).first;
  }
  return *it->second;
}

const object& cache::object_at(const std::string& path) {
  std::lock_guard lock(mutex_);
  return object_locked(path);
}

const cache::process& cache::remember_locked(std::int64_t pid) {
  auto maps = read_maps(pid);
  auto& kept = processes_[pid];
  if (maps.empty()) return kept;  // gone: what was read before stays
  // A path kept from the last reading keeps its object without opening the file again.
  std::map<std::string, const object*> known;
  for (std::size_t i = 0; i < kept.maps.size(); ++i) known.emplace(kept.maps[i].path, kept.objects[i]);
  process fresh;
  for (const auto& m : maps) {
    const auto k = known.find(m.path);
    fresh.objects.push_back(!is_file(m) ? nullptr : k != known.end() ? k->second : &object_locked(m.path));
  }
  fresh.maps = std::move(maps);
  kept = std::move(fresh);
  return kept;
}

void cache::remember(std::int64_t pid) {
  std::lock_guard lock(mutex_);
  remember_locked(pid);
}

cache::place cache::locate(std::int64_t pid, std::uint64_t pc) {
  std::lock_guard lock(mutex_);
  const auto find = [&](const process& p) -> std::size_t {
    for (std::size_t i = 0; i < p.maps.size(); ++i)
      if (pc >= p.maps[i].start && pc < p.maps[i].end) return i;
    return p.maps.size();
  };
  auto it = processes_.find(pid);
  const process* p = it == processes_.end() ? nullptr : &it->second;
  std::size_t i = p ? find(*p) : 0;
  if (!p || i == p->maps.size()) {
    p = &remember_locked(pid);
    i = find(*p);
  }
  place where;
  if (i == p->maps.size() || !p->objects[i]) return where;
  const auto& m = p->maps[i];
  where.module = m.path.substr(m.path.rfind('/') + 1);
  where.load_base = m.start - m.offset;
  where.mapping_start = m.start;
  const auto address = p->objects[i]->address_of(pc - m.start + m.offset);
  where.holder = address ? p->objects[i]->function_at(*address) : nullptr;
  if (where.holder) where.function_start = pc - (*address - where.holder->address);
  return where;
}

std::string cache::frame(std::int64_t pid, std::uint64_t pc) {
  const auto where = locate(pid, pc);
  if (where.module.empty()) return hex(pc);
  if (unresolved_) return where.module + ":" + hex(pc - where.mapping_start);
  if (!where.holder) return where.module + "`" + hex(pc);
  const auto& name = mangled_ ? where.holder->mangled : where.holder->name;
  return pc > where.function_start ? where.module + "`" + name + "+" + hex(pc - where.function_start)
                                   : where.module + "`" + name;
}

void cache::name_mangled(bool on) { mangled_ = on; }
void cache::name_unresolved(bool on) { unresolved_ = on; }

std::size_t cache::objects_read() const {
  std::lock_guard lock(mutex_);
  return reads_;
}

cache& shared_cache() {
  static cache instance;
  return instance;
}

}  // namespace dtpp::symbols
