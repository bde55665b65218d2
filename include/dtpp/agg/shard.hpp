// One thread's part of an aggregation: rows that its thread alone appends and updates, and that
// a snapshot may read at the same time.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "dtpp/agg/key_index.hpp"
#include "dtpp/agg/words.hpp"

namespace dtpp::agg::detail {

// Rows of `width` elements that never move once appended (chunk c holds 64 << c rows), so a
// reader may use a row while the writer appends more.
template <class T>
class stable_rows {
 public:
  explicit stable_rows(std::size_t width) : width_(width) {}
  stable_rows(const stable_rows&) = delete;
  stable_rows& operator=(const stable_rows&) = delete;
  ~stable_rows() {
    for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
  }

  T* row(std::size_t i) const {
    const auto [chunk, offset] = locate(i);
    return chunks_[chunk].load(std::memory_order_acquire) + offset * width_;
  }

  /// Makes room for row i (the writer calls this for i = 0, 1, 2 ...).
  T* prepare(std::size_t i) {
    const auto [chunk, offset] = locate(i);
    T* base = chunks_[chunk].load(std::memory_order_relaxed);
    if (base == nullptr) {
      base = new T[(first_rows << chunk) * width_]();
      chunks_[chunk].store(base, std::memory_order_release);
    }
    return base + offset * width_;
  }

 private:
  static constexpr std::size_t first_rows = 64;
  static std::pair<std::size_t, std::size_t> locate(std::size_t i) {
    const std::size_t v = i + first_rows;
    const std::size_t chunk = static_cast<std::size_t>(std::bit_width(v)) - 7;  // log2(64) + 1
    return {chunk, v - (first_rows << chunk)};
  }
  std::size_t width_;
  std::atomic<T*> chunks_[48] = {};
};

/// Row data is [generation, data words...]. Generation 0 marks a row removed by trunc(); a row
/// whose generation is older than its aggregation's was cleared and restarts on its next update.
template <class Key>
class shard {
 public:
  explicit shard(std::size_t words) : keys_(1), data_(words + 1), words_(words) {}

  /// This shard's row for the key, created if absent. Writer thread only.
  template <class View, class Init>
  std::uint64_t* find_or_add(const View& view, std::uint64_t hash, Init&& init) {
    if (std::uint64_t** found = index_.find(view, hash)) return *found;
    const std::size_t row = size_.load(std::memory_order_relaxed);
    Key* key = keys_.prepare(row);
    *key = key_traits<Key>::make(view);
    std::uint64_t* data = data_.prepare(row);
    init(data);
    index_.insert(*key, hash, data);
    size_.store(row + 1, std::memory_order_release);
    return data;
  }

  /// Rows a reader may look at.
  std::size_t published() const { return size_.load(std::memory_order_acquire); }
  const Key& key(std::size_t row) const { return *keys_.row(row); }
  std::uint64_t* data(std::size_t row) const { return data_.row(row); }
  std::size_t words() const { return words_; }

 private:
  stable_rows<Key> keys_;
  stable_rows<std::uint64_t> data_;
  std::size_t words_;
  key_index<Key, std::uint64_t*> index_;
  std::atomic<std::size_t> size_{0};
};

}  // namespace dtpp::agg::detail
