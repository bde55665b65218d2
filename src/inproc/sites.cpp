// DTPP_PROBE sites: the section the linker gathers them in, enabling them for one engine at a
// time, firing, disabling them once no firing is under way, and their nops in a fork()ed child.

#include <link.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <mutex>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "dtpp/agg/thread_index.hpp"
#include "state.hpp"

namespace dtpp::inproc {

extern "C" {
// The linker defines these around the dtpp_probes section; weak, so that a program without a
// single DTPP_PROBE still links.
[[gnu::weak]] extern probe_site __start_dtpp_probes[];
[[gnu::weak]] extern probe_site __stop_dtpp_probes[];
}

std::span<probe_site> probe_sites() {
  if (__start_dtpp_probes == nullptr || __stop_dtpp_probes == nullptr) return {};
  return {__start_dtpp_probes, __stop_dtpp_probes};
}

namespace {
// The engine DTPP_PROBE sites fire into (one at a time per process), and the number of firings
// under way, which stopping waits to drain before the engine may go away. Each thread counts its
// own firings in a slot no other live thread writes (slots follow agg::detail::thread_index), with
// plain stores: the stopping thread makes them visible with membarrier(2), a barrier on every
// thread of the process paid once per stop rather than a locked instruction per firing. Where
// membarrier is refused, each firing pays a full fence instead.
std::atomic<engine::state*> active_engine{nullptr};
struct alignas(64) firing_count {
  std::atomic<std::uint64_t> value{0};
};
constexpr std::size_t firing_page = 256;
std::atomic<firing_count*> firing_pages[256] = {};  // 65536 threads, as aggregations allow

bool membarrier_registered() {
  static const bool registered =
      ::syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  return registered;
}
std::atomic<bool> membarrier_ready{false};  // set once, before any site is enabled

[[gnu::noinline]] firing_count& new_firing_slot() {
  const auto index = agg::detail::thread_index();
  if (index / firing_page >= std::size(firing_pages))
    throw std::length_error("dtpp: more than 65536 threads firing DTPP_PROBE sites at once");
  auto& page_ref = firing_pages[index / firing_page];
  auto* page = page_ref.load(std::memory_order_acquire);
  if (page == nullptr) {
    auto* fresh = new firing_count[firing_page];
    if (page_ref.compare_exchange_strong(page, fresh, std::memory_order_acq_rel))
      page = fresh;
    else
      delete[] fresh;
  }
  return page[index % firing_page];
}

firing_count& my_firings() {
  thread_local firing_count* mine = nullptr;  // constant-initialized: no guard on the hot path
  if (mine == nullptr) [[unlikely]]
    mine = &new_firing_slot();
  return *mine;
}
}  // namespace

namespace detail {

void attach_sites(engine::state& st) {
  if (membarrier_registered()) membarrier_ready.store(true, std::memory_order_relaxed);
  // The sites are the process's: one program at a time may have them. Programs without sites
  // (BEGIN, tick, profile ...) run beside it, each on its own handle.
  engine::state* none = nullptr;
  const bool uses_sites = std::any_of(st.probes.begin(), st.probes.end(), [](const auto& b) { return b.site != nullptr; });
  if (uses_sites && !active_engine.compare_exchange_strong(none, &st))
    throw engine_error("another D program already has this process's DTPP_PROBE sites");
  for (std::size_t i = 0; i < st.probes.size(); ++i)
    if (auto& b = st.probes[i]; b.site) {
      b.site->probe = static_cast<std::uint32_t>(i + 1);
      b.site->enabled.store(true, std::memory_order_release);
    }
}

void detach_sites(engine::state& st) {
  for (auto& b : st.probes)
    if (b.site) b.site->enabled.store(false, std::memory_order_relaxed);
  engine::state* expected = &st;
  active_engine.compare_exchange_strong(expected, nullptr);
  // Either a firing's count is visible from here on, or that firing sees no engine.
  if (membarrier_ready.load(std::memory_order_relaxed))
    ::syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
  for (const auto& page_ref : firing_pages)
    if (const auto* page = page_ref.load(std::memory_order_acquire))
      for (std::size_t i = 0; i < firing_page; ++i)
        while (page[i].value.load(std::memory_order_acquire) != 0) std::this_thread::yield();
}

}  // namespace detail

namespace {
// A firing of a probe with more than updates: its clauses, with the frame of a runner; out of
// line, so that a direct probe's firing pays for none of it.
[[gnu::noinline]] void run_clauses(engine::state& st, const detail::bound_probe& probe,
                                   std::span<const std::int64_t> args, const void* caller) {
  detail::runner(st, probe, args, detail::runner::this_cpu, caller).run();
}
}  // namespace

void fire(probe_site& site, std::span<const std::int64_t> args) {
  auto& count = my_firings();
  const auto under_way = count.value.load(std::memory_order_relaxed);
  count.value.store(under_way + 1, std::memory_order_relaxed);
  // The count before the engine is read: detach_sites' membarrier, or this fence, orders the two.
  if (membarrier_ready.load(std::memory_order_relaxed))
    std::atomic_signal_fence(std::memory_order_seq_cst);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
  auto* st = active_engine.load(std::memory_order_seq_cst);
  if (st && site.enabled.load(std::memory_order_acquire) && site.probe != 0 &&
      site.probe <= st->probes.size()) {
    const auto& probe = st->probes[site.probe - 1];
    if (probe.direct_updates.empty())
      run_clauses(*st, probe, args, __builtin_return_address(0));
    else if (!detail::stopped_by_exit(*st, probe))
      for (const auto& u : probe.direct_updates) u.apply(u, args);
  }
  count.value.store(under_way, std::memory_order_release);
}

// DTPP_PROBE sites put back to their 5-byte nop in a fork()ed child. Linux 6.18 turns a uprobe on
// the nop into a call to a trampoline page after its first hit; fork() copies the call but not the
// page (the kernel maps it VM_DONTCOPY), so a child reaching the site would call nothing and die of
// SIGSEGV. The sites are listed in `.note.dtpp` notes (dtpp/inproc/probe.hpp) of the loaded
// objects. Before each fork() the parent picks those that are not the nop any more; the child, one
// thread still, writes the nop back over any of them that is not a uprobe's breakpoint on it, and
// runs on untraced at those sites, as DTrace leaves the children of a process it traces. The
// parent reads its sites, which costs nothing once their pages are mapped, so that the child of an
// untraced process touches none (each would be a page fault). Left open: a site whose uprobe is
// placed and first hit between the parent's reading and the fork itself.
namespace {

constexpr std::array<unsigned char, 5> nop5{0x0f, 0x1f, 0x44, 0x00, 0x00};
constexpr unsigned char breakpoint = 0xcc;  // int3, which a uprobe writes over the first byte

// Filled by the parent before a fork(), read by the child after it; the mutex keeps two threads
// forking at once from filling them together.
std::mutex fork_mutex;
std::vector<unsigned char*> all_sites;  // kept while no object is loaded or unloaded
// dl_iterate_phdr's counts of objects loaded and unloaded when all_sites was listed; none yet.
unsigned long long objects_added = ~0ull, objects_removed = ~0ull;
std::vector<unsigned char*> changed_sites;
std::uintptr_t page_size = 0;

void list_notes(const dl_phdr_info& object) {
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const auto& segment = object.dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const auto* note = reinterpret_cast<const char*>(object.dlpi_addr + segment.p_vaddr);
    const auto* end = note + segment.p_memsz;
    while (end - note >= 12) {
      std::uint32_t name_size, desc_size, type;
      std::memcpy(&name_size, note, 4);
      std::memcpy(&desc_size, note + 4, 4);
      std::memcpy(&type, note + 8, 4);
      const char* name = note + 12;
      const char* desc = name + ((name_size + 3) & ~3u);
      if (name_size == 5 && std::memcmp(name, "dtpp", 5) == 0 && type == 1 && desc_size == 4) {
        std::int32_t offset;
        std::memcpy(&offset, desc, 4);
        all_sites.push_back(reinterpret_cast<unsigned char*>(const_cast<char*>(desc + offset)));
      }
      note = desc + ((desc_size + 3) & ~3u);
    }
  }
}

void list_changed_sites_before_fork() {
  fork_mutex.lock();
  page_size = static_cast<std::uintptr_t>(::getpagesize());
  bool first = true;
  dl_iterate_phdr(
      [](dl_phdr_info* object, std::size_t, void* first_object) {
        if (*static_cast<bool*>(first_object)) {
          *static_cast<bool*>(first_object) = false;
          if (object->dlpi_adds == objects_added && object->dlpi_subs == objects_removed) return 1;
          all_sites.clear();
          objects_added = object->dlpi_adds;
          objects_removed = object->dlpi_subs;
        }
        list_notes(*object);
        return 0;
      },
      &first);
  changed_sites.clear();
  for (auto* site : all_sites)
    if (std::memcmp(site, nop5.data(), nop5.size()) != 0) changed_sites.push_back(site);
}

void unlock_in_parent() { fork_mutex.unlock(); }

// Async-signal-safe: the child of a threaded process may call nothing else before exec().
void restore_sites_in_child() {
  for (auto* site : changed_sites) {
    const bool nop = std::memcmp(site, nop5.data(), nop5.size()) == 0;
    const bool uprobe_breakpoint =
        site[0] == breakpoint && std::memcmp(site + 1, nop5.data() + 1, nop5.size() - 1) == 0;
    if (nop || uprobe_breakpoint) continue;  // the kernel takes its own breakpoint out
    auto* first_page = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(site) & ~(page_size - 1));
    const auto length = static_cast<std::size_t>(site + nop5.size() - static_cast<unsigned char*>(first_page));
    if (::mprotect(first_page, length, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) continue;
    std::memcpy(site, nop5.data(), nop5.size());
    ::mprotect(first_page, length, PROT_READ | PROT_EXEC);
  }
  fork_mutex.unlock();
}

[[maybe_unused]] const int fork_handlers_registered =
    ::pthread_atfork(list_changed_sites_before_fork, unlock_in_parent, restore_sites_in_child);

}  // namespace

}  // namespace dtpp::inproc
