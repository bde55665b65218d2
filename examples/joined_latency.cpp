// Seed 000's joined walk: min, max and avg latency per system call from three aggregations,
// bundled by key and printed as syscall-latency-stats.d prints them (aggsortpos=2).
#include <cstdint>
#include <cstdio>
#include <string>

#include "dtpp/dtpp.hpp"

namespace {

// A reproducible latency stream: a linear congruential generator picks the call and its latency.
struct latency_stream {
  std::uint64_t state = 42;
  std::uint64_t next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  }
};

}  // namespace

int main() {
  const char* calls[] = {"close", "schedctl", "write", "send", "connect",
                         "lwp_cond_wait", "read", "lwp_park", "pollsys"};
  // Each call's typical latency in ns; every sample lands within a factor of 4 of it.
  const std::int64_t typical[] = {20000, 36000, 60000, 97000, 170000,
                                  4000000, 900000, 50000000, 90000000};

  // @m[probefunc] = min(this->lat); @M[probefunc] = max(this->lat); @a[probefunc] = avg(...);
  dtpp::aggregation<dtpp::Min, std::string> m(dtpp::Min{}, "m");
  dtpp::aggregation<dtpp::Max, std::string> M(dtpp::Max{}, "M");
  dtpp::aggregation<dtpp::Avg, std::string> a(dtpp::Avg{}, "a");
  latency_stream stream;
  for (int i = 0; i < 10000; ++i) {
    const auto call = stream.next() % 9;
    // A skewed pick: later calls are rarer, as in the seed's trace.
    if (call > 4 && stream.next() % 3 != 0) continue;
    const auto lat = typical[call] / 2 + static_cast<std::int64_t>(stream.next() % 4) * typical[call] / 2 +
                     static_cast<std::int64_t>(stream.next() % 997);
    m.at(calls[call]).add(lat);
    M.at(calls[call]).add(lat);
    a.at(calls[call]).add(lat);
  }

  // printa("%-20s min: %12@d max: %12@d avg: %12@d\n", @m, @M, @a) with aggsortpos=2.
  dtpp::walk_joined(
      [](std::string_view call, std::int64_t min, std::int64_t max, const dtpp::avg& avg) {
        std::printf("%-20.*s min: %12lld max: %12lld avg: %12lld\n", static_cast<int>(call.size()),
                    call.data(), static_cast<long long>(min), static_cast<long long>(max),
                    static_cast<long long>(avg.value()));
      },
      dtpp::sort_options{.pos = 2}, m.snapshot(), M.snapshot(), a.snapshot());
}
