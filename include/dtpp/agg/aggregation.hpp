// dtpp::aggregation<Fn, Keys...>: a keyed table that any number of threads update without locks.
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "dtpp/agg/functions.hpp"
#include "dtpp/agg/key.hpp"
#include "dtpp/agg/sharded.hpp"
#include "dtpp/agg/snapshot.hpp"

namespace dtpp {

namespace agg::detail {
inline std::atomic<std::uint32_t>& next_varid() {
  static std::atomic<std::uint32_t> id{1};
  return id;
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
/// on the aggregation as DTrace's consumer acts on its copy (see agg::sharded).
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
      : store_(fn, {agg::detail::next_varid()++, std::move(name), agg::function::of(fn),
                    traits::types()}) {}
  explicit aggregation(std::string name)
    requires std::default_initializable<Fn>
      : aggregation(Fn{}, std::move(name)) {}

  /// The calling thread's slot for a key (live data), created on first use.
  template <class... Args>
  slot at(const Args&... keys) {
    static_assert(sizeof...(Args) == sizeof...(Keys),
                  "dtpp: at() takes exactly one argument per key of the aggregation");
    return slot(&store_.function(), store_.words(typename traits::view(keys...)));
  }

  /// The merged data of every shard as of now, with each shard's part kept when more than one
  /// thread contributed (the in-process form of DTrace's aggpercpu).
  agg::snapshot<Fn, key_type> snapshot() const { return {store_.function(), store_.snapshot()}; }

  /// clear(): every key stays; every value restarts from the function's initial value
  /// (0, or INT64_MAX / INT64_MIN for min / max).
  void clear() { store_.clear(); }
  /// trunc(): removes every key.
  void trunc() { store_.trunc(); }
  /// trunc(n): keeps the n keys with the largest values; trunc(-n) the n smallest.
  void trunc(std::int64_t n) { store_.trunc(n); }
  /// normalize(n): printed values are divided by n (snapshots carry the divisor).
  void normalize(std::uint64_t n) { store_.normalize(n); }
  void denormalize() { store_.denormalize(); }
  std::uint64_t normal() const { return store_.normal(); }

  const Fn& function() const { return store_.function(); }
  const std::string& name() const { return store_.desc().name; }
  /// Ids follow construction order, as D's follow first appearance.
  std::uint32_t varid() const { return store_.desc().varid; }
  const agg::descriptor& descriptor() const { return store_.desc(); }

 private:
  agg::sharded<Fn, key_type> store_;
};

}  // namespace dtpp
