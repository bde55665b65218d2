// An aggregation a running program updates, as its consumer sees it: snapshots and the
// consumer-side operations. The in-process engine's shards and the kernel's per-CPU maps both
// stand behind it.
#pragma once

#include <cstdint>

#include "dtpp/agg/descriptor.hpp"
#include "dtpp/agg/dynamic.hpp"

namespace dtpp::agg {

class live_aggregation {
 public:
  virtual ~live_aggregation() = default;

  virtual const descriptor& desc() const = 0;
  /// The merged values now, with per-CPU (or per-thread) parts where the engine keeps them.
  virtual dynamic_table snapshot() const = 0;
  /// clear(): keys stay, values restart from the function's initial value.
  virtual void clear() = 0;
  /// trunc(): every key goes; trunc(n): all but the n largest (n < 0: smallest) go.
  virtual void trunc() = 0;
  virtual void trunc(std::int64_t n) = 0;
  virtual void normalize(std::uint64_t n) = 0;
  virtual void denormalize() = 0;
};

}  // namespace dtpp::agg
