// The storage behind every aggregation: one shard per updating thread, merged by snapshots, and
// the consumer-side operations clear, trunc, normalize and denormalize.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dtpp/agg/descriptor.hpp"
#include "dtpp/agg/key.hpp"
#include "dtpp/agg/key_index.hpp"
#include "dtpp/agg/shard.hpp"
#include "dtpp/agg/table.hpp"
#include "dtpp/agg/thread_index.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/agg/words.hpp"

namespace dtpp::agg {

namespace detail {
// Names a sharded store for the per-thread shard cache; never reused, unlike addresses.
inline std::uint64_t next_instance() {
  static std::atomic<std::uint64_t> id{1};
  return id++;
}
}  // namespace detail

/// Keyed data words updated by any number of threads without locks. Fn is a policy type
/// (Count, Quantize ...) or, for aggregations known only at run time, agg::function; both offer
/// words(), init(), add() and merge().
///
/// Live data: words() and what callers do with the words it returns, each thread in its own
/// shard with no lock and no write to memory another thread writes. Snapshot data: snapshot().
/// clear(), trunc(), normalize() and denormalize() act as DTrace's consumer acts on its copy: an
/// update racing one of them lands either before or after it, never half.
template <class Fn, class Key>
class sharded {
 public:
  using traits = key_traits<Key>;

  sharded(Fn fn, descriptor desc)
      : fn_(std::move(fn)), desc_(std::move(desc)), instance_(detail::next_instance()) {}
  sharded(const sharded&) = delete;
  sharded& operator=(const sharded&) = delete;
  ~sharded() {
    for (auto& page : pages_) {
      auto* p = page.load(std::memory_order_acquire);
      if (p == nullptr) continue;
      for (std::size_t i = 0; i < page_size; ++i) delete p[i].load(std::memory_order_acquire);
      delete[] p;
    }
  }

  /// The calling thread's data words for a key (live), created on first use.
  template <class View>
  std::uint64_t* words(const View& view) {
    return words(view, traits::hash(view));
  }
  /// The same, for a caller that computed traits::hash(view) once and kept it.
  template <class View>
  std::uint64_t* words(const View& view, std::uint64_t hash) {
    shard_type& s = this_shard();
    std::uint64_t* data = s.find(view, hash);
    if (data == nullptr) [[unlikely]]
      data = add_row(s, view, hash);
    return current(data + 1);
  }

  /// Gives each thread room for at most `rows` keys (DTrace's aggsize, which bounds each CPU's
  /// aggregation buffer); an update of a key that finds no room is an aggregation drop. Set it
  /// before the first update.
  void limit_rows(std::size_t rows) { row_limit_ = rows; }
  /// Updates dropped for want of room, since the start.
  std::uint64_t drops() const { return drops_.load(std::memory_order_relaxed); }

  /// Words that words() gave this thread for a key earlier, for a caller that kept them: rows
  /// never move, but a clear() or trunc() since then restarts the row from the function's
  /// initial value first.
  std::uint64_t* current(std::uint64_t* words) {
    const auto gen = generation();
    if (detail::load(words[-1]) != gen) [[unlikely]]
      restart_row(words - 1, gen);
    return words;
  }

  /// The merged data of every shard as of now, with each shard's part kept when more than one
  /// thread contributed (the in-process form of DTrace's aggpercpu).
  table<Key> snapshot() const {
    const auto shards = live_shards();
    table<Key> t(desc_, shards.size() > 1 ? shards.size() : 0);
    t.set_normal(normal_.load(std::memory_order_relaxed));
    const auto gen = generation();
    if (shards.size() == 1) {
      // One shard holds each key once: no merging needed.
      const auto& s = *shards[0];
      const auto n = s.published();
      t.reserve(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t* data = s.data(i);
        const auto g = row_generation(data);
        if (g == removed) continue;
        if (g == gen) t.add_row(s.key(i), data + 1);
        else t.add_row(s.key(i));  // cleared: the key stays with initial values
      }
    } else {
      detail::key_index<Key, std::size_t> rows;
      for (std::size_t si = 0; si < shards.size(); ++si) {
        const auto& s = *shards[si];
        const auto n = s.published();
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint64_t* data = s.data(i);
          const auto g = row_generation(data);
          if (g == removed) continue;
          const auto& key = s.key(i);
          const auto hash = traits::hash(key);
          const std::size_t* found = rows.find(key, hash);
          const std::size_t row = found ? *found : rows.insert(key, hash, t.add_row(key));
          if (g != gen) continue;
          fn_.merge(t.words(row).data(), data + 1);
          fn_.merge(t.shard_words(row, si).data(), data + 1);
        }
      }
    }
    return t;
  }

  /// clear(): every key stays; every value restarts from the function's initial value
  /// (0, or INT64_MAX / INT64_MIN for min / max).
  void clear() { generation_.fetch_add(1, std::memory_order_release); }

  /// trunc(): removes every key.
  void trunc() {
    for (auto* s : live_shards())
      for (std::size_t i = 0, n = s->published(); i < n; ++i) remove_row(s->data(i));
  }
  /// trunc(n): keeps the n keys with the largest values; trunc(-n) the n smallest.
  void trunc(std::int64_t n) {
    const auto snap = snapshot();
    const table<Key>* tables[] = {&snap};
    const auto rows = walk_rows<Key>(tables, n >= 0 ? order::valrevsorted : order::valsorted);
    const auto keep = static_cast<std::size_t>(n >= 0 ? n : -n);
    detail::key_index<Key, bool> kept;
    for (std::size_t i = 0; i < rows.size() && i < keep; ++i) {
      const auto& key = snap.key(rows[i].row);
      kept.insert(key, traits::hash(key), true);
    }
    for (auto* s : live_shards())
      for (std::size_t i = 0, count = s->published(); i < count; ++i)
        if (!kept.find(s->key(i), traits::hash(s->key(i)))) remove_row(s->data(i));
  }

  /// normalize(n): printed values are divided by n (snapshots carry the divisor).
  void normalize(std::uint64_t n) {
    if (n == 0) throw std::invalid_argument("dtpp: normalize() divisor must not be zero");
    normal_.store(n, std::memory_order_relaxed);
  }
  void denormalize() { normal_.store(1, std::memory_order_relaxed); }
  std::uint64_t normal() const { return normal_.load(std::memory_order_relaxed); }

  const Fn& function() const { return fn_; }
  const descriptor& desc() const { return desc_; }

 private:
  using shard_type = detail::shard<Key>;
  static constexpr std::size_t page_size = 256;
  static constexpr std::size_t pages = 256;  // room for 65536 threads alive at once
  static constexpr std::uint64_t removed = 0;

  std::uint64_t generation() const { return generation_.load(std::memory_order_relaxed); }
  static std::uint64_t row_generation(const std::uint64_t* data) {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(data[0]))
        .load(std::memory_order_acquire);
  }
  static void remove_row(std::uint64_t* data) {
    std::atomic_ref<std::uint64_t>(data[0]).store(removed, std::memory_order_relaxed);
  }

  // The hot path is words(), this_shard() and shard::find(); whatever runs once per new key, new
  // thread or clear() stays out of line.
  template <class View>
  [[gnu::noinline]] std::uint64_t* add_row(shard_type& s, const View& view, std::uint64_t hash) {
    if (s.published() >= row_limit_) {
      drops_.fetch_add(1, std::memory_order_relaxed);
      std::uint64_t* d = s.spare();
      fn_.init(d + 1);
      d[0] = generation();
      return d;
    }
    return s.add(view, hash, [&](std::uint64_t* d) {
      fn_.init(d + 1);
      detail::store(d[0], generation());
    });
  }
  [[gnu::noinline]] void restart_row(std::uint64_t* data, std::uint64_t gen) {
    fn_.init(data + 1);
    std::atomic_ref<std::uint64_t>(data[0]).store(gen, std::memory_order_release);
  }

  // A plain thread_local cache (no guard or constructor call) of the shards this thread used
  // last, four stores at a time (a D clause often updates several aggregations), each entry
  // naming its store by an id that is never reused.
  struct cached {
    std::uint64_t instance;
    shard_type* shard;
  };
  static inline thread_local cached cache_[4] = {};

  shard_type& this_shard() {
    const cached& c = cache_[instance_ & 3];
    if (c.instance == instance_) [[likely]]
      return *c.shard;
    return find_shard();
  }

  [[gnu::noinline]] shard_type& find_shard() {
    thread_local std::size_t index = std::numeric_limits<std::size_t>::max();
    if (index == std::numeric_limits<std::size_t>::max()) index = detail::thread_index();
    shard_type* s = nullptr;
    if (auto* page = pages_[index / page_size].load(std::memory_order_acquire))
      s = page[index % page_size].load(std::memory_order_acquire);
    if (s == nullptr) s = &add_shard(index);
    cache_[instance_ & 3] = {instance_, s};
    return *s;
  }

  shard_type& add_shard(std::size_t index) {
    if (index / page_size >= pages)
      throw std::length_error("dtpp: more than 65536 threads updating one aggregation at once");
    auto& page_ref = pages_[index / page_size];
    auto* page = page_ref.load(std::memory_order_acquire);
    if (page == nullptr) {
      auto* fresh = new std::atomic<shard_type*>[page_size]();
      if (page_ref.compare_exchange_strong(page, fresh, std::memory_order_acq_rel))
        page = fresh;
      else
        delete[] fresh;
    }
    auto* s = new shard_type(fn_.words());
    page[index % page_size].store(s, std::memory_order_release);
    return *s;
  }

  std::vector<shard_type*> live_shards() const {
    std::vector<shard_type*> out;
    for (const auto& page_ref : pages_) {
      const auto* page = page_ref.load(std::memory_order_acquire);
      if (page == nullptr) continue;
      for (std::size_t i = 0; i < page_size; ++i)
        if (auto* s = page[i].load(std::memory_order_acquire)) out.push_back(s);
    }
    return out;
  }

  Fn fn_;
  descriptor desc_;
  std::uint64_t instance_;
  std::atomic<std::uint64_t> generation_{1};
  std::atomic<std::uint64_t> normal_{1};
  std::size_t row_limit_ = std::numeric_limits<std::size_t>::max();
  std::atomic<std::uint64_t> drops_{0};
  std::atomic<std::atomic<shard_type*>*> pages_[pages] = {};
};

}  // namespace dtpp::agg
