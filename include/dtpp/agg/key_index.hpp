// An open-addressing hash index from keys to values, for one thread's use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "dtpp/agg/key.hpp"

namespace dtpp::agg::detail {

// Linear probing over a power-of-two table kept at most half full; the full hash is stored so
// that most mismatches are rejected without touching the key.
template <class Key, class Value>
class key_index {
 public:
  key_index() : slots_(16) {}

  /// The value stored for a key equal to `view` (whose key_traits hash is `hash`), or nullptr.
  template <class View>
  Value* find(const View& view, std::uint64_t hash) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.hash == hash && key_traits<Key>::equal(s.key, view)) return &s.value;
    }
  }

  /// Adds a key known to be absent.
  Value& insert(Key key, std::uint64_t hash, Value value) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    ++count_;
    return place(slots_, slot{hash, std::move(value), std::move(key), true}).value;
  }

  std::size_t size() const { return count_; }

  void reserve(std::size_t n) {
    while (2 * n > slots_.size()) grow();
  }

 private:
  struct slot {
    std::uint64_t hash = 0;
    Value value{};
    Key key{};
    bool used = false;
  };

  static slot& place(std::vector<slot>& slots, slot&& s) {
    const std::size_t mask = slots.size() - 1;
    std::size_t i = s.hash & mask;
    while (slots[i].used) i = (i + 1) & mask;
    slots[i] = std::move(s);
    return slots[i];
  }

  void grow() {
    std::vector<slot> bigger(slots_.size() * 2);
    for (auto& s : slots_)
      if (s.used) place(bigger, std::move(s));
    slots_.swap(bigger);
  }

  std::vector<slot> slots_;
  std::size_t count_ = 0;
};

}  // namespace dtpp::agg::detail
