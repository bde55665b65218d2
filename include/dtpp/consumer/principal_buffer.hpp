// bufpolicy's effect on what the consumer sees of the principal buffer. DTrace keeps a buffer of
// bufsize bytes a CPU: `switch` hands it over at each switchrate, `ring` overwrites its oldest
// records and is read only when tracing stops, `fill` stops tracing (as exit() does) at the first
// record that does not fit beside what END's clauses may need. dtpp's engines hand every firing
// over as it comes, and this model keeps or drops them as DTrace's buffer would, counting each
// firing in the bytes DTrace's record takes (ir::clause's buffer_size).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <vector>

#include "dtpp/engine/source.hpp"

namespace dtpp::consumer {

class principal_buffer {
 public:
  enum class policy : std::uint8_t { ring = 0, fill = 1, switching = 2 };  // bufpolicy's choices

  /// Throws engine::error when fill's reserve for END exceeds bufsize, as dtrace_go() refuses.
  principal_buffer(const ir::program& program, std::span<const engine::probe_info> probes, policy p,
                   std::uint64_t bufsize);

  /// The firings to consume now, in order, out of `taken` (the engine's newest). A ring gives
  /// its firings once `stopped` (tracing is over and END has fired).
  std::vector<engine::firing> admit(std::vector<engine::firing> taken, bool stopped);
  /// Whether a fill buffer has filled: tracing must stop.
  bool full() const { return full_; }

 private:
  struct extent {
    std::uint32_t size = 0, alignment = 4;  // 0 bytes: the clause writes no firing
  };
  struct kept {
    engine::firing firing;
    std::uint64_t bytes;
  };
  bool fits_fill(const engine::firing& f);

  policy policy_;
  std::uint64_t bufsize_;
  std::uint64_t end_reserve_ = 0;
  std::vector<extent> extents_;                     // by clause index (epid - 1)
  std::uint32_t end_id_ = 0;                        // dtrace:::END's probe id, when enabled
  std::map<std::uint32_t, std::uint64_t> filled_;   // fill: bytes used, by CPU
  std::map<std::uint32_t, std::deque<kept>> rings_; // ring: newest firings, by CPU
  std::map<std::uint32_t, std::uint64_t> ring_bytes_;
  bool full_ = false;
};

}  // namespace dtpp::consumer
