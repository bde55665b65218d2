// The calling thread's CPU time, and a loop that spends a known amount of it, for tests of
// vtimestamp in both engines.
#pragma once

#include <time.h>

#include <cstdint>

namespace dtpp::testing {

/// This thread's CPU time (the scheduler's account), in nanoseconds.
inline std::int64_t thread_cpu_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// Spins until this thread has had `ns` more nanoseconds of CPU; returns how many it had.
inline std::int64_t burn_cpu(std::int64_t ns) {
  const auto start = thread_cpu_ns();
  while (thread_cpu_ns() - start < ns) {
  }
  return thread_cpu_ns() - start;
}

}  // namespace dtpp::testing
