// A native tracer: worker threads time their own operations into typed aggregations, with no
// lock on the hot path, and the program prints them as dtrace(1) would at exit.
//
//   native_tracer                    time real work with the steady clock
//   native_tracer --simulated-clock  a fixed cost model instead, for reproducible output
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "dtpp/dtpp.hpp"

namespace {

constexpr int workers = 4;
constexpr int operations_per_worker = 3000;
const char* const operation_names[] = {"checksum", "parse", "sort"};

// The work being measured: small but real, so that the real clock has something to time.
std::uint64_t do_operation(int op, std::vector<std::uint32_t>& buffer, int i) {
  switch (op) {
    case 0: return std::accumulate(buffer.begin(), buffer.end(), std::uint64_t{0});
    case 1: return std::to_string(i * 7919).size() + std::stoul(std::to_string(i));
    default:
      std::rotate(buffer.begin(), buffer.begin() + (i % buffer.size()), buffer.end());
      std::sort(buffer.begin(), buffer.begin() + 64);
      return buffer[0];
  }
}

// Nanoseconds the simulated clock charges: each operation has its own cost shape.
std::int64_t simulated_cost(int op, int i) {
  const std::int64_t base[] = {700, 2100, 9000};
  return base[op] + (i % 7) * base[op] / 3 + (i % 97 == 0 ? 40 * base[op] : 0);
}

}  // namespace

int main(int argc, char** argv) {
  const bool simulated = argc > 1 && std::strcmp(argv[1], "--simulated-clock") == 0;

  // @latency[op] = quantize(ns); @ops[worker] = count();
  dtpp::aggregation<dtpp::Quantize, std::string> latency(dtpp::Quantize{}, "latency");
  dtpp::aggregation<dtpp::Count, int> ops(dtpp::Count{}, "ops");

  std::vector<std::thread> threads;
  std::uint64_t sink[workers] = {};
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      std::vector<std::uint32_t> buffer(1024);
      std::iota(buffer.begin(), buffer.end(), static_cast<std::uint32_t>(w));
      for (int i = 0; i < operations_per_worker; ++i) {
        const int op = (i + w) % 3;
        const auto start = std::chrono::steady_clock::now();
        sink[w] += do_operation(op, buffer, i);
        const auto ns = simulated ? simulated_cost(op, i)
                                  : std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now() - start)
                                        .count();
        latency.at(operation_names[op]).add(ns);
        ops.at(w).add();
      }
    });
  for (auto& t : threads) t.join();

  // dtrace(1) at exit: a newline, then every aggregation in the default order, by variable id.
  std::string text = "\n";
  text += dtpp::print::format_aggregation(latency.snapshot().data());
  text += dtpp::print::format_aggregation(ops.snapshot().data());
  std::fputs(text.c_str(), stdout);
  return std::accumulate(sink, sink + workers, std::uint64_t{0}) == 0;  // keep the work alive
}
