// Small, reusable per-thread numbers that index the per-thread shards of every aggregation.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

namespace dtpp::agg::detail {

// A thread keeps its number until it exits; the number is then handed to the next new thread,
// which takes over the shards the old one wrote (the mutex orders the two threads' writes).
class thread_registry {
 public:
  static thread_registry& instance() {
    static thread_registry registry;
    return registry;
  }
  std::size_t acquire() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return next_++;
    const auto index = free_.back();
    free_.pop_back();
    return index;
  }
  void release(std::size_t index) {
    std::lock_guard lock(mutex_);
    free_.push_back(index);
  }

 private:
  std::mutex mutex_;
  std::vector<std::size_t> free_;
  std::size_t next_ = 0;
};

struct thread_slot {
  thread_registry& registry = thread_registry::instance();  // outlives every thread_slot
  std::size_t index = registry.acquire();
  ~thread_slot() { registry.release(index); }
};

/// This thread's number: 0, 1, 2 ... in order of first use, reused after a thread exits.
inline std::size_t thread_index() {
  thread_local const thread_slot slot;
  return slot.index;
}

}  // namespace dtpp::agg::detail
