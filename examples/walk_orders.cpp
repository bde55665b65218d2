// Seed 000's walker listings: one aggregation in the four single orders, and three aggregations
// (min, avg, max of latency per system call) in the four orders that interleave them.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "dtpp/dtpp.hpp"

namespace {

void print_walk(const char* title, std::span<const dtpp::agg::table<std::string>* const> tables,
                dtpp::order o) {
  std::string text;
  dtpp::print::print_aggregations<std::string>(text, tables, o);
  std::printf("%s\n%s\n", title, text.c_str());
}

}  // namespace

int main() {
  // A five-second count of system calls: @[probefunc] = count().
  const std::vector<std::pair<const char*, int>> calls = {
      {"brk", 4},      {"close", 2},     {"fchmod", 1},    {"getpid", 1},  {"gtime", 5},
      {"ioctl", 650},  {"lstat", 1},     {"lwp_cond_wait", 2}, {"lwp_park", 53},
      {"lwp_sigmask", 2}, {"mkdir", 1},  {"mmap", 1},      {"nanosleep", 3}, {"open", 4},
      {"p_online", 256}, {"pollsys", 178}, {"portfs", 40}, {"pset", 3},    {"read", 26},
      {"rename", 1},   {"schedctl", 1},  {"sysconfig", 3}, {"write", 27},  {"yield", 1}};
  dtpp::aggregation<dtpp::Count, std::string> counts;
  for (const auto& [name, n] : calls)
    for (int i = 0; i < n; ++i) counts.at(name).add();
  const auto snap = counts.snapshot();
  const dtpp::agg::table<std::string>* one[] = {&snap.data()};
  print_walk("dtrace_aggregate_walk_keysorted()", one, dtpp::order::keysorted);
  print_walk("dtrace_aggregate_walk_valsorted()", one, dtpp::order::valsorted);
  print_walk("dtrace_aggregate_walk_keyrevsorted()", one, dtpp::order::keyrevsorted);
  print_walk("dtrace_aggregate_walk_valrevsorted()", one, dtpp::order::valrevsorted);

  // @c[probefunc] = min(lat); @d[probefunc] = avg(lat); @e[probefunc] = max(lat);
  dtpp::aggregation<dtpp::Min, std::string> c(dtpp::Min{}, "c");
  dtpp::aggregation<dtpp::Avg, std::string> d(dtpp::Avg{}, "d");
  dtpp::aggregation<dtpp::Max, std::string> e(dtpp::Max{}, "e");
  const struct { const char* name; std::int64_t min, avg, max; } latencies[] = {
      {"p_online", 968, 1051, 9685},
      {"pollsys", 7161, 120515277, 4159836122},
      {"portfs", 1668, 2583, 6948},
      {"pset", 1165, 1911, 3369}};
  for (const auto& l : latencies) {
    // min and max see every sample; avg sees samples whose mean is the seed's figure.
    for (const auto x : {l.min, l.max}) {
      c.at(l.name).add(x);
      e.at(l.name).add(x);
    }
    d.at(l.name).add(l.avg);
  }
  const auto cs = c.snapshot();
  const auto ds = d.snapshot();
  const auto es = e.snapshot();
  const dtpp::agg::table<std::string>* three[] = {&cs.data(), &ds.data(), &es.data()};
  print_walk("dtrace_aggregate_walk_keyvarsorted()", three, dtpp::order::keyvarsorted);
  print_walk("dtrace_aggregate_walk_valvarsorted()", three, dtpp::order::valvarsorted);
  print_walk("dtrace_aggregate_walk_keyvarrevsorted()", three, dtpp::order::keyvarrevsorted);
  print_walk("dtrace_aggregate_walk_valvarrevsorted()", three, dtpp::order::valvarrevsorted);
}
