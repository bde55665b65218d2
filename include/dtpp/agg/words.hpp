// Word access for data that one thread writes while another may read it.
#pragma once

#include <atomic>
#include <cstdint>

namespace dtpp::agg::detail {

// Each shard has a single writer, so a relaxed load and store (plain moves on x86, no lock
// prefix) are enough; atomic_ref keeps concurrent snapshot reads free of data races.
inline std::uint64_t load(const std::uint64_t& w) {
  return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(w))
      .load(std::memory_order_relaxed);
}
inline void store(std::uint64_t& w, std::uint64_t v) {
  std::atomic_ref<std::uint64_t>(w).store(v, std::memory_order_relaxed);
}
inline void bump(std::uint64_t& w, std::uint64_t delta) { store(w, load(w) + delta); }

}  // namespace dtpp::agg::detail
