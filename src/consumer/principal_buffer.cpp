#include "dtpp/consumer/principal_buffer.hpp"

#include <algorithm>

namespace dtpp::consumer {
namespace {

std::uint64_t round_up(std::uint64_t n, std::uint64_t alignment) { return (n + alignment - 1) / alignment * alignment; }

}  // namespace

principal_buffer::principal_buffer(const ir::program& program, std::span<const engine::probe_info> probes, policy p,
                                   std::uint64_t bufsize)
    : policy_(p), bufsize_(bufsize) {
  for (const auto& c : program.clauses) extents_.push_back({c.buffer_size, c.buffer_alignment});
  for (const auto& probe : probes) {
    const bool end = probe.provider == "dtrace" && probe.name == "END";
    if (end) end_id_ = probe.id;
    // fill keeps room for every END clause, at its worst alignment.
    if (end && policy_ == policy::fill)
      for (const auto c : probe.clauses)
        if (extents_[c].size) end_reserve_ += extents_[c].size + extents_[c].alignment;
  }
  if (end_reserve_ > bufsize_) throw engine::error("END enablings exceed size of principal buffer");
}

bool principal_buffer::fits_fill(const engine::firing& f) {
  const auto& e = extents_[f.epid - 1];
  if (e.size == 0) return true;
  const bool end = f.probe == end_id_;
  auto& used = filled_[f.cpu];
  const auto after = round_up(used, e.alignment) + e.size;
  if (after > bufsize_ - (end ? 0 : end_reserve_)) return false;
  used = after;
  return true;
}

std::vector<engine::firing> principal_buffer::admit(std::vector<engine::firing> taken, bool stopped) {
  switch (policy_) {
    case policy::switching:
      return taken;
    case policy::fill: {
      std::vector<engine::firing> out;
      for (auto& f : taken) {
        // Once full, only END's firings (in their reserve) are kept.
        if (full_ && f.probe != end_id_) continue;
        if (fits_fill(f)) out.push_back(std::move(f));
        else full_ = true;
      }
      return out;
    }
    case policy::ring: {
      for (auto& f : taken) {
        const auto& e = extents_[f.epid - 1];
        const std::uint64_t bytes = round_up(e.size, e.alignment);
        if (bytes > bufsize_) continue;
        auto& ring = rings_[f.cpu];
        auto& used = ring_bytes_[f.cpu];
        used += bytes;
        ring.push_back({std::move(f), bytes});
        while (used > bufsize_) {
          used -= ring.front().bytes;
          ring.pop_front();
        }
      }
      std::vector<engine::firing> out;
      if (!stopped) return out;
      for (auto& [cpu, ring] : rings_)
        for (auto& k : ring) out.push_back(std::move(k.firing));
      rings_.clear();
      ring_bytes_.clear();
      return out;
    }
  }
  return taken;
}

}  // namespace dtpp::consumer
