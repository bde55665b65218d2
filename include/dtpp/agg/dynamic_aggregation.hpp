// An aggregation whose function and keys are known only at run time (from a D program): the
// engines' form of aggregation<Fn, Keys...>, over the same lock-free shards.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "dtpp/agg/dynamic.hpp"
#include "dtpp/agg/live.hpp"
#include "dtpp/agg/sharded.hpp"

namespace dtpp::agg {

/// `@name[keys] = fn(value[, incr])` for a descriptor from the D compiler. Updates are live and
/// lock-free; snapshot() gives the run-time table the walkers and printers take.
class dynamic_aggregation final : public live_aggregation {
 public:
  explicit dynamic_aggregation(descriptor desc) : store_(desc.fn, std::move(desc)) {}

  /// Adds a sample for a key (count() ignores value and increment).
  void add(const dynamic_key& key, std::int64_t value, std::int64_t incr = 1) {
    store_.function().add(store_.words(key), value, incr);
  }

  /// The calling thread's live data words for a key, for engines that resolve the function's
  /// policy once and update through it; `hash` is hash(key), computed once for a constant key.
  std::uint64_t* words(const dynamic_key& key, std::uint64_t hash) {
    return store_.words(key, hash);
  }
  static std::uint64_t hash(const dynamic_key& key) { return key_traits<dynamic_key>::hash(key); }
  /// Words that words() gave the calling thread earlier, made current (restarted after a clear).
  std::uint64_t* current(std::uint64_t* words) { return store_.current(words); }

  /// Bounds each thread's part to `bytes`, counting a row as the kernel engine counts a map entry
  /// (its keys at their declared sizes, its data words); updates that find no room are drops().
  void limit_bytes(std::size_t bytes) { store_.limit_rows(std::max<std::size_t>(bytes / row_bytes(desc()), 1)); }
  std::uint64_t drops() const { return store_.drops(); }

  dynamic_table snapshot() const override { return store_.snapshot(); }
  void clear() override { store_.clear(); }
  void trunc() override { store_.trunc(); }
  void trunc(std::int64_t n) override { store_.trunc(n); }
  void normalize(std::uint64_t n) override { store_.normalize(n); }
  void denormalize() override { store_.denormalize(); }
  const descriptor& desc() const override { return store_.desc(); }

 private:
  sharded<function, dynamic_key> store_;
};

}  // namespace dtpp::agg
