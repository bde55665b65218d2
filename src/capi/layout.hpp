// How the C API lays records out for libdtrace's consumers: enabled probes' records (as the
// checked program places them, aggregation ids widened to dtrace_aggvarid_t) and aggregation
// tuples (variable id, keys, value words), with the C descriptions that go with them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <vector>

#include "dtpp/agg/descriptor.hpp"
#include "dtpp/agg/dynamic.hpp"
#include "dtpp/c/dtrace.h"
#include "dtpp/ir/program.hpp"

namespace dtpp::capi {

struct free_deleter {
  void operator()(void* p) const { std::free(p); }
};

/// A C structure ending in `dtrace_recdesc_t x_rec[1]`, with room for n records, zeroed.
template <class T>
std::unique_ptr<T, free_deleter> with_records(std::size_t n) {
  const std::size_t size = sizeof(T) + (n > 1 ? n - 1 : 0) * sizeof(dtrace_recdesc_t);
  auto* p = static_cast<T*>(std::calloc(1, size));
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<T, free_deleter>(p);
}

/// One clause as an enabled probe: its description, and where each record comes from in the
/// data the engine wrote.
struct clause_layout {
  std::unique_ptr<dtrace_eprobedesc_t, free_deleter> desc;
  std::vector<int> first_record;        ///< per statement: its first record's index, or -1
  std::vector<std::uint32_t> source_offset;  ///< per record: its offset in the engine's data
  std::vector<std::uint32_t> source_size;    ///< per record: its size there

  /// Copies a firing's data from the engine's layout into this one (`out` holds desc->dtepd_size
  /// bytes, zeroed).
  void copy(std::span<const std::byte> from, std::byte* out) const;
};

/// The layout of a clause; `next_uarg` numbers statements across the program.
clause_layout lay_out(const ir::clause& c, std::uint64_t& next_uarg);

/// An aggregation's description: record 0 its variable id, then its keys, then its value.
std::unique_ptr<dtrace_aggdesc_t, free_deleter> describe(const agg::descriptor& d,
                                                         std::uint32_t epid);

/// Writes a tuple's records as `desc` lays them out, into `out` (desc.dtagd_size bytes, zeroed).
void write_tuple(const dtrace_aggdesc_t& desc, const agg::dynamic_key& key,
                 std::span<const std::uint64_t> words, std::byte* out);

}  // namespace dtpp::capi
