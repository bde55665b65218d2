// DTPP_PROBE sites: the section the linker gathers them in, enabling them for one engine at a
// time, firing, and disabling them once no firing is under way.

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <span>
#include <stdexcept>
#include <thread>

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

}  // namespace dtpp::inproc
