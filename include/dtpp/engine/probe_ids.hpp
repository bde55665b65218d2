// Probe ids as dtrace-utils gives them: the dtrace provider's BEGIN, END and ERROR are 1, 2 and
// 3 whatever order a program names them in, then profile's pre-listed rates; every engine numbers
// its other probes from first_engine_id on, in the order dtrace -l lists them, and the probes no
// listing holds (another profile rate, a pid or USDT probe) after its whole listing, as
// dtrace-utils creates those when first named.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/engine/source.hpp"

namespace dtpp::engine {

/// The profile provider's probes dtrace -l lists before any program names one (dtrace-utils'
/// dt_prov_profile.c), in its order.
inline constexpr std::array<std::string_view, 13> listed_profile_probes = {
    "profile-97",  "profile-199", "profile-499", "profile-997", "profile-1999", "profile-4001", "profile-4999",
    "tick-1",      "tick-10",     "tick-100",    "tick-500",    "tick-1000",    "tick-5000"};

/// The dtrace provider's probes, in id order (DTRACE_BEGIN_ID 1, END 2, ERROR 3).
inline constexpr std::array<std::string_view, 3> dtrace_probes = {"BEGIN", "END", "ERROR"};

/// The first id an engine gives a probe of its own (after dtrace's and profile's listed ones).
inline constexpr std::uint32_t first_engine_id = 1 + dtrace_probes.size() + listed_profile_probes.size();

/// The id of dtrace:::NAME or a listed profile:::NAME; 0 for any other probe.
inline std::uint32_t listed_id(std::string_view provider, std::string_view name) {
  const auto position = [&](const auto& names, std::uint32_t first) -> std::uint32_t {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? 0 : first + static_cast<std::uint32_t>(it - names.begin());
  };
  if (provider == "dtrace") return position(dtrace_probes, 1);
  if (provider == "profile") return position(listed_profile_probes, 1 + dtrace_probes.size());
  return 0;
}

/// Sorts probes by id, as engines keep them (for probe_with_id()).
inline void sort_by_id(std::vector<probe_info>& probes) {
  std::sort(probes.begin(), probes.end(), [](const probe_info& a, const probe_info& b) { return a.id < b.id; });
}

/// The probe with id `id` among an engine's probes (kept in id order); throws std::out_of_range
/// for an id none has.
inline const probe_info& probe_with_id(const std::vector<probe_info>& probes, std::uint32_t id) {
  const auto it = std::lower_bound(probes.begin(), probes.end(), id,
                                   [](const probe_info& p, std::uint32_t wanted) { return p.id < wanted; });
  if (it == probes.end() || it->id != id) throw std::out_of_range("no probe has id " + std::to_string(id));
  return *it;
}

}  // namespace dtpp::engine
