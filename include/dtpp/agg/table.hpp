// A snapshot of one aggregation: keys with merged data words, optional per-shard parts, and the
// normalization divisor. Reads of a table never see live updates.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "dtpp/agg/descriptor.hpp"
#include "dtpp/agg/words.hpp"

namespace dtpp::agg {

/// Rows of (key, data words) in DTrace's layouts. Tables are what engines hand to the walkers and
/// printers; the typed snapshot<Fn, Key> and the run-time form both sit on one.
template <class Key>
class table {
 public:
  table() = default;
  explicit table(descriptor desc, std::size_t shards = 0)
      : desc_(std::move(desc)), stride_(desc_.fn.words()), shards_(shards) {}

  const descriptor& desc() const { return desc_; }
  std::size_t size() const { return keys_.size(); }
  bool empty() const { return keys_.empty(); }
  std::size_t stride() const { return stride_; }

  const Key& key(std::size_t row) const { return keys_[row]; }
  std::span<const std::uint64_t> words(std::size_t row) const {
    return {words_.data() + row * stride_, stride_};
  }
  std::span<std::uint64_t> words(std::size_t row) {
    return {words_.data() + row * stride_, stride_};
  }

  /// How many per-shard (per-thread or per-CPU) parts each row keeps; 0 when none were kept.
  std::size_t shards() const { return shards_; }
  std::span<const std::uint64_t> shard_words(std::size_t row, std::size_t shard) const {
    return {shard_words_.data() + (row * shards_ + shard) * stride_, stride_};
  }
  std::span<std::uint64_t> shard_words(std::size_t row, std::size_t shard) {
    return {shard_words_.data() + (row * shards_ + shard) * stride_, stride_};
  }

  /// normalize()'s divisor; 1 when not normalized.
  std::uint64_t normal() const { return normal_; }
  void set_normal(std::uint64_t n) { normal_ = n; }

  /// Appends a row whose words (and per-shard parts) hold the function's initial values.
  std::size_t add_row(Key key) {
    keys_.push_back(std::move(key));
    words_.resize(words_.size() + stride_);
    shard_words_.resize(shard_words_.size() + stride_ * shards_);
    const auto row = keys_.size() - 1;
    desc_.fn.visit([&](const auto& fn) {
      fn.init(words(row).data());
      for (std::size_t s = 0; s < shards_; ++s) fn.init(shard_words(row, s).data());
    });
    return row;
  }

  /// Appends a row holding a copy of `words` (which may be live: each word is read once,
  /// atomically). Tables with per-shard parts take add_row(key) and merges instead.
  std::size_t add_row(Key key, const std::uint64_t* words_in) {
    keys_.push_back(std::move(key));
    const auto start = words_.size();
    words_.resize(start + stride_);
    for (std::size_t i = 0; i < stride_; ++i) words_[start + i] = detail::load(words_in[i]);
    return keys_.size() - 1;
  }

  void reserve(std::size_t rows) {
    keys_.reserve(rows);
    words_.reserve(rows * stride_);
    shard_words_.reserve(rows * stride_ * shards_);
  }

  /// Keeps the rows for which keep(row) is true, in order.
  template <class Pred>
  void keep_if(Pred keep) {
    std::size_t out = 0;
    for (std::size_t row = 0; row < size(); ++row) {
      if (!keep(row)) continue;
      if (out != row) {
        keys_[out] = std::move(keys_[row]);
        std::copy_n(words_.begin() + row * stride_, stride_, words_.begin() + out * stride_);
        std::copy_n(shard_words_.begin() + row * stride_ * shards_, stride_ * shards_,
                    shard_words_.begin() + out * stride_ * shards_);
      }
      ++out;
    }
    keys_.resize(out);
    words_.resize(out * stride_);
    shard_words_.resize(out * stride_ * shards_);
  }

 private:
  descriptor desc_;
  std::size_t stride_ = 1;
  std::size_t shards_ = 0;
  std::uint64_t normal_ = 1;
  std::vector<Key> keys_;
  std::vector<std::uint64_t> words_;
  std::vector<std::uint64_t> shard_words_;
};

}  // namespace dtpp::agg
