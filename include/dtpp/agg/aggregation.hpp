// dtpp::aggregation<Fn, Keys...>: a keyed table that any number of threads update without locks.
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dtpp/agg/functions.hpp"
#include "dtpp/agg/key.hpp"
#include "dtpp/agg/key_index.hpp"
#include "dtpp/agg/shard.hpp"
#include "dtpp/agg/snapshot.hpp"
#include "dtpp/agg/thread_index.hpp"

namespace dtpp {

namespace agg::detail {
inline std::atomic<std::uint32_t>& next_varid() {
  static std::atomic<std::uint32_t> id{1};
  return id;
}
// Names an aggregation for the per-thread shard cache; never reused, unlike addresses.
inline std::uint64_t next_instance() {
  static std::atomic<std::uint64_t> id{1};
  return id++;
}
}  // namespace agg::detail

/// An aggregation like D's `@name[keys] = fn(value)`.
///
///     dtpp::aggregation<dtpp::Quantize, std::string> latency;
///     latency.at("read").add(ns);                       // live: this thread's shard
///     auto snap = latency.snapshot();                   // a merged copy; later updates unseen
///     snap.walk(dtpp::order::keysorted, [](std::string_view op, const dtpp::histogram& h) {});
///
/// Live data: at() and the updates through the slot it returns, made by the calling thread into
/// its own shard with no lock and no write to memory another thread writes. Snapshot data:
/// snapshot(), and everything read from it. clear(), trunc(), normalize() and denormalize() act
/// on the aggregation as DTrace's consumer acts on its copy: an update racing one of them lands
/// either before or after it, never half.
template <agg::function_policy Fn, class... Keys>
class aggregation {
 public:
  using key_type = agg::key_of_t<Keys...>;
  using traits = agg::key_traits<key_type>;
  using value_type = typename Fn::value_type;

  /// Where one key's data lives in the calling thread's shard. Valid until the aggregation dies;
  /// only the thread that called at() may use it.
  class slot {
   public:
    /// count(): one more.
    void add() const
      requires std::same_as<Fn, Count>
    {
      fn_->add(words_, 0, 1);
    }
    /// sum(x), min(x), max(x), avg(x), stddev(x), and the quantize family with increment 1.
    template <class T>
    void add(const T& x) const {
      static_assert(!std::is_same_v<Fn, Count>,
                    "dtpp: count() takes no value: call add() with no argument");
      static_assert(agg::integer_field<T>,
                    "dtpp: the value of an aggregating function must be an integer "
                    "(D_AGG_SCALAR: argument #1 must be of scalar type)");
      fn_->add(words_, static_cast<std::int64_t>(x), 1);
    }
    /// quantize(x, incr), lquantize(..., incr), llquantize(..., incr): incr may be negative.
    template <class T, class I>
    void add(const T& x, const I& incr) const {
      static_assert(agg::is_histogram(Fn::kind),
                    "dtpp: only quantize(), lquantize() and llquantize() take an increment");
      static_assert(agg::integer_field<T> && agg::integer_field<I>,
                    "dtpp: the value and increment of an aggregating function must be integers");
      fn_->add(words_, static_cast<std::int64_t>(x), static_cast<std::int64_t>(incr));
    }

   private:
    friend class aggregation;
    slot(const Fn* fn, std::uint64_t* words) : fn_(fn), words_(words) {}
    const Fn* fn_;
    std::uint64_t* words_;
  };

  aggregation()
    requires std::default_initializable<Fn>
      : aggregation(Fn{}) {}
  explicit aggregation(Fn fn, std::string name = "")
      : fn_(std::move(fn)),
        name_(std::move(name)),
        varid_(agg::detail::next_varid()++),
        instance_(agg::detail::next_instance()) {}
  explicit aggregation(std::string name)
    requires std::default_initializable<Fn>
      : aggregation(Fn{}, std::move(name)) {}

  aggregation(const aggregation&) = delete;
  aggregation& operator=(const aggregation&) = delete;
  ~aggregation() {
    for (auto& page : pages_) {
      auto* p = page.load(std::memory_order_acquire);
      if (p == nullptr) continue;
      for (std::size_t i = 0; i < page_size; ++i) delete p[i].load(std::memory_order_acquire);
      delete[] p;
    }
  }

  /// The calling thread's slot for a key (live data), created on first use.
  template <class... Args>
  slot at(const Args&... keys) {
    static_assert(sizeof...(Args) == sizeof...(Keys),
                  "dtpp: at() takes exactly one argument per key of the aggregation");
    const auto view = make_view(keys...);
    const auto hash = traits::hash(view);
    shard_type& s = this_shard();
    std::uint64_t* data = s.find(view, hash);
    if (data == nullptr) [[unlikely]]
      data = add_row(s, view, hash);
    // A clear() since this row's last update restarts it from the function's initial value.
    const auto gen = generation();
    if (agg::detail::load(data[0]) != gen) [[unlikely]]
      restart_row(data, gen);
    return slot(&fn_, data + 1);
  }

  /// The merged data of every shard as of now, with each shard's part kept when more than one
  /// thread contributed (the in-process form of DTrace's aggpercpu).
  agg::snapshot<Fn, key_type> snapshot() const {
    const auto shards = live_shards();
    agg::table<key_type> t(descriptor(), shards.size() > 1 ? shards.size() : 0);
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
      agg::detail::key_index<key_type, std::size_t> rows;
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
    return {fn_, std::move(t)};
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
    const table_type* tables[] = {&snap.data()};
    const auto rows = agg::walk_rows<key_type>(tables, n >= 0 ? order::valrevsorted
                                                              : order::valsorted);
    const auto keep = static_cast<std::size_t>(n >= 0 ? n : -n);
    agg::detail::key_index<key_type, bool> kept;
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
  const std::string& name() const { return name_; }
  /// Ids follow construction order, as D's follow first appearance.
  std::uint32_t varid() const { return varid_; }
  agg::descriptor descriptor() const {
    return {varid_, name_, agg::function::of(fn_), traits::types()};
  }

 private:
  using shard_type = agg::detail::shard<key_type>;
  using table_type = agg::table<key_type>;
  static constexpr std::size_t page_size = 256;
  static constexpr std::size_t pages = 256;  // room for 65536 threads alive at once
  static constexpr std::uint64_t removed = 0;

  template <class... Args>
  static auto make_view(const Args&... keys) {
    return typename traits::view(keys...);
  }

  std::uint64_t generation() const { return generation_.load(std::memory_order_relaxed); }
  static std::uint64_t row_generation(const std::uint64_t* data) {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(data[0]))
        .load(std::memory_order_acquire);
  }
  static void remove_row(std::uint64_t* data) {
    std::atomic_ref<std::uint64_t>(data[0]).store(removed, std::memory_order_relaxed);
  }

  // The hot path is at(), this_shard() and shard::find(); whatever runs once per new key, new
  // thread or clear() stays out of line.
  template <class View>
  [[gnu::noinline]] std::uint64_t* add_row(shard_type& s, const View& view, std::uint64_t hash) {
    return s.add(view, hash, [&](std::uint64_t* d) {
      fn_.init(d + 1);
      agg::detail::store(d[0], generation());
    });
  }
  [[gnu::noinline]] void restart_row(std::uint64_t* data, std::uint64_t gen) {
    fn_.init(data + 1);
    std::atomic_ref<std::uint64_t>(data[0]).store(gen, std::memory_order_release);
  }

  // Plain thread_locals (no guard or constructor call): the shard this thread used last, and the
  // aggregation it belongs to, named by an id that is never reused.
  static inline thread_local std::uint64_t cached_instance_ = 0;
  static inline thread_local shard_type* cached_shard_ = nullptr;

  shard_type& this_shard() {
    if (cached_instance_ == instance_) [[likely]]
      return *cached_shard_;
    return find_shard();
  }

  [[gnu::noinline]] shard_type& find_shard() {
    thread_local std::size_t index = std::numeric_limits<std::size_t>::max();
    if (index == std::numeric_limits<std::size_t>::max()) index = agg::detail::thread_index();
    shard_type* s = nullptr;
    if (auto* page = pages_[index / page_size].load(std::memory_order_acquire))
      s = page[index % page_size].load(std::memory_order_acquire);
    if (s == nullptr) s = &add_shard(index);
    cached_instance_ = instance_;
    cached_shard_ = s;
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
  std::string name_;
  std::uint32_t varid_;
  std::uint64_t instance_;
  std::atomic<std::uint64_t> generation_{1};
  std::atomic<std::uint64_t> normal_{1};
  std::atomic<std::atomic<shard_type*>*> pages_[pages] = {};
};

}  // namespace dtpp
