// One thread's part of an aggregation: rows that its thread alone appends and updates, and that
// a snapshot may read at the same time.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "dtpp/agg/key.hpp"
#include "dtpp/agg/words.hpp"

namespace dtpp::agg::detail {

/// A row is the key followed by [generation, data words...], so that one lookup touches one
/// index slot and one row. Rows never move once appended (chunk c holds 64 << c rows), so a
/// reader may use published rows while the writer appends more. Generation 0 marks a row removed
/// by trunc(); a row whose generation is older than its aggregation's was cleared and restarts on
/// its next update.
template <class Key>
class shard {
 public:
  explicit shard(std::size_t words)
      : stride_(round_up(data_offset + 8 * (words + 1), row_alignment)), slots_(64), spare_(words + 1) {}
  shard(const shard&) = delete;
  shard& operator=(const shard&) = delete;
  ~shard() {
    const auto n = size_.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < n; ++i) key_at(row(i)).~Key();
    for (std::size_t c = 0; c < chunk_count; ++c)
      if (auto* chunk = chunks_[c].load(std::memory_order_relaxed))
        ::operator delete(chunk, std::align_val_t{chunk_alignment});
  }

  /// The data of this shard's row for the key, or nullptr. Writer thread only.
  template <class View>
  std::uint64_t* find(const View& view, std::uint64_t hash) const {
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const slot& s = slots_[i];
      if (s.row == nullptr) return nullptr;
      if (s.hash == hash && key_traits<Key>::equal(key_at(s.row), view)) return data_at(s.row);
    }
  }

  /// Appends a row for a key find() did not find; init fills its data. Writer thread only.
  template <class View, class Init>
  std::uint64_t* add(const View& view, std::uint64_t hash, Init&& init) {
    const std::size_t i = size_.load(std::memory_order_relaxed);
    const std::size_t v = i + first_rows;
    const std::size_t chunk = static_cast<std::size_t>(std::bit_width(v)) - 7;
    std::byte* base = chunks_[chunk].load(std::memory_order_relaxed);
    if (base == nullptr) {
      const std::size_t bytes = round_up((first_rows << chunk) * stride_, chunk_alignment);
      base = static_cast<std::byte*>(::operator new(bytes, std::align_val_t{chunk_alignment}));
      chunks_[chunk].store(base, std::memory_order_release);
    }
    std::byte* r = base + (v - (first_rows << chunk)) * stride_;
    ::new (r) Key(key_traits<Key>::make(view));
    init(data_at(r));
    // Kept at most 3/4 full; the index is this thread's alone, so it may be rebuilt at will.
    if (4 * (i + 1) > 3 * slots_.size()) grow();
    place(slots_, {hash, r});
    size_.store(i + 1, std::memory_order_release);
    return data_at(r);
  }

  /// [generation, data words...] that belong to no key: where the updates of a key that found no
  /// room go, so that they are counted as dropped without a branch in every caller. Writer
  /// thread only; no reader looks at them.
  std::uint64_t* spare() { return spare_.data(); }

  /// Rows a reader may look at.
  std::size_t published() const { return size_.load(std::memory_order_acquire); }
  const Key& key(std::size_t i) const { return key_at(row(i)); }
  std::uint64_t* data(std::size_t i) const { return data_at(row(i)); }

 private:
  struct slot {
    std::uint64_t hash = 0;
    std::byte* row = nullptr;
  };
  static constexpr std::size_t first_rows = 64;
  static constexpr std::size_t chunk_count = 48;
  static constexpr std::size_t row_alignment = alignof(Key) > 8 ? alignof(Key) : 8;
  // Chunks start and end on cache-line boundaries: no two threads' rows share a line.
  static constexpr std::size_t chunk_alignment = row_alignment > 64 ? row_alignment : 64;
  static constexpr std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }
  static constexpr std::size_t data_offset = round_up(sizeof(Key), 8);

  static const Key& key_at(const std::byte* row) {
    return *std::launder(reinterpret_cast<const Key*>(row));
  }
  static std::uint64_t* data_at(std::byte* row) {
    return std::launder(reinterpret_cast<std::uint64_t*>(row + data_offset));
  }

  std::byte* row(std::size_t i) const {
    const std::size_t v = i + first_rows;
    const std::size_t chunk = static_cast<std::size_t>(std::bit_width(v)) - 7;  // 64 = 2^6
    return chunks_[chunk].load(std::memory_order_acquire) + (v - (first_rows << chunk)) * stride_;
  }

  static void place(std::vector<slot>& slots, slot s) {
    const std::size_t mask = slots.size() - 1;
    std::size_t i = s.hash & mask;
    while (slots[i].row != nullptr) i = (i + 1) & mask;
    slots[i] = s;
  }

  void grow() {
    std::vector<slot> bigger(slots_.size() * 2);
    for (const auto& s : slots_)
      if (s.row != nullptr) place(bigger, s);
    slots_.swap(bigger);
    mask_ = slots_.size() - 1;
  }

  std::size_t stride_;
  std::vector<slot> slots_;
  std::size_t mask_ = slots_.size() - 1;
  std::atomic<std::size_t> size_{0};
  std::atomic<std::byte*> chunks_[chunk_count] = {};
  std::vector<std::uint64_t> spare_;
};

}  // namespace dtpp::agg::detail
