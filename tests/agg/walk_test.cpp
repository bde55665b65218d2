// The nine walk orders and the aggsort options, checked against the listings of seed 000.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "dtpp/agg/aggregation.hpp"

using namespace dtpp;

namespace {

// Seed 000's five-second count of system calls.
const std::vector<std::pair<std::string, int>> syscall_counts = {
    {"brk", 4},          {"close", 2},       {"fchmod", 1},   {"getpid", 1},  {"gtime", 5},
    {"ioctl", 650},      {"lstat", 1},       {"lwp_cond_wait", 2}, {"lwp_park", 53},
    {"lwp_sigmask", 2},  {"mkdir", 1},       {"mmap", 1},     {"nanosleep", 3}, {"open", 4},
    {"p_online", 256},   {"pollsys", 178},   {"portfs", 40},  {"pset", 3},    {"read", 26},
    {"rename", 1},       {"schedctl", 1},    {"sysconfig", 3}, {"write", 27}, {"yield", 1}};

std::vector<std::string> walk_counts(order o, const sort_options& options = {}) {
  aggregation<Count, std::string> calls;
  // Insert in reverse so that insertion order never masquerades as a sort.
  for (auto it = syscall_counts.rbegin(); it != syscall_counts.rend(); ++it)
    for (int i = 0; i < it->second; ++i) calls.at(it->first).add();
  std::vector<std::string> out;
  calls.snapshot().walk(
      o, [&](std::string_view name, std::uint64_t n) { out.push_back(std::string(name) + " " + std::to_string(n)); },
      options);
  return out;
}

const std::vector<std::string> keysorted = {
    "brk 4",       "close 2",    "fchmod 1",   "getpid 1",   "gtime 5",         "ioctl 650",
    "lstat 1",     "lwp_cond_wait 2", "lwp_park 53", "lwp_sigmask 2", "mkdir 1", "mmap 1",
    "nanosleep 3", "open 4",     "p_online 256", "pollsys 178", "portfs 40",   "pset 3",
    "read 26",     "rename 1",   "schedctl 1", "sysconfig 3", "write 27",        "yield 1"};
const std::vector<std::string> valsorted = {
    "fchmod 1", "getpid 1",   "lstat 1",  "mkdir 1",  "mmap 1",       "rename 1",
    "schedctl 1", "yield 1",  "close 2",  "lwp_cond_wait 2", "lwp_sigmask 2", "nanosleep 3",
    "pset 3",   "sysconfig 3", "brk 4",   "open 4",   "gtime 5",      "read 26",
    "write 27", "portfs 40",  "lwp_park 53", "pollsys 178", "p_online 256", "ioctl 650"};

std::vector<std::string> reversed(std::vector<std::string> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

// Seed 000's min/avg/max latencies: @c = min, @d = avg, @e = max, ids in that order.
struct latencies {
  aggregation<Min, std::string> c;
  aggregation<Avg, std::string> d;
  aggregation<Max, std::string> e;
  latencies() {
    const struct { const char* name; std::int64_t min, avg, max; } rows[] = {
        {"pset", 1165, 1911, 3369},
        {"pollsys", 7161, 120515277, 4159836122},
        {"portfs", 1668, 2583, 6948},
        {"p_online", 968, 1051, 9685}};
    for (const auto& r : rows) {
      c.at(r.name).add(r.min);
      d.at(r.name).add(r.avg);
      e.at(r.name).add(r.max);
    }
  }
  std::vector<std::string> walk(order o) const {
    std::vector<std::string> out;
    dtpp::walk(o, {}, [&](std::string_view name, const auto& value) {
      if constexpr (std::is_same_v<std::decay_t<decltype(value)>, dtpp::avg>)
        out.push_back(std::string(name) + " " + std::to_string(value.value()));
      else
        out.push_back(std::string(name) + " " + std::to_string(value));
    }, c.snapshot(), d.snapshot(), e.snapshot());
    return out;
  }
};

}  // namespace

TEST_CASE("keysorted and keyrevsorted walk by key", "[agg][walk]") {
  CHECK(walk_counts(order::keysorted) == keysorted);
  CHECK(walk_counts(order::keyrevsorted) == reversed(keysorted));
}

TEST_CASE("valsorted walks by value, ties by key, valrevsorted reverses both", "[agg][walk]") {
  CHECK(walk_counts(order::valsorted) == valsorted);
  CHECK(walk_counts(order::valrevsorted) == reversed(valsorted));
}

TEST_CASE("the default walk is valsorted, shaped by the aggsort options", "[agg][walk]") {
  CHECK(walk_counts(order::sorted) == valsorted);
  CHECK(walk_counts(order::sorted, {.sortkey = true}) == keysorted);
  CHECK(walk_counts(order::sorted, {.sortrev = true}) == reversed(valsorted));
  CHECK(walk_counts(order::sorted, {.sortkey = true, .sortrev = true}) == reversed(keysorted));
}

TEST_CASE("explicit walkers ignore the aggsort options", "[agg][walk]") {
  CHECK(walk_counts(order::keysorted, {.sortkey = false, .sortrev = true}) == keysorted);
  CHECK(walk_counts(order::valsorted, {.sortkey = true}) == valsorted);
}

TEST_CASE("unsorted walks every row once", "[agg][walk]") {
  auto rows = walk_counts(order::unsorted);
  std::sort(rows.begin(), rows.end());
  auto expected = keysorted;
  std::sort(expected.begin(), expected.end());
  CHECK(rows == expected);
}

TEST_CASE("var walks interleave aggregations as seed 000 lists them", "[agg][walk]") {
  const latencies l;
  CHECK(l.walk(order::keyvarsorted) ==
        std::vector<std::string>{"p_online 968", "p_online 1051", "p_online 9685", "pollsys 7161",
                                 "pollsys 120515277", "pollsys 4159836122", "portfs 1668",
                                 "portfs 2583", "portfs 6948", "pset 1165", "pset 1911", "pset 3369"});
  // Values compare only within one aggregating function: min() group, then max(), then avg().
  CHECK(l.walk(order::valvarsorted) ==
        std::vector<std::string>{"p_online 968", "pset 1165", "portfs 1668", "pollsys 7161",
                                 "pset 3369", "portfs 6948", "p_online 9685", "pollsys 4159836122",
                                 "p_online 1051", "pset 1911", "portfs 2583", "pollsys 120515277"});
  CHECK(l.walk(order::keyvarrevsorted) ==
        std::vector<std::string>{"pset 3369", "pset 1911", "pset 1165", "portfs 6948", "portfs 2583",
                                 "portfs 1668", "pollsys 4159836122", "pollsys 120515277",
                                 "pollsys 7161", "p_online 9685", "p_online 1051", "p_online 968"});
  CHECK(l.walk(order::valvarrevsorted) ==
        std::vector<std::string>{"pollsys 120515277", "portfs 2583", "pset 1911", "p_online 1051",
                                 "pollsys 4159836122", "p_online 9685", "portfs 6948", "pset 3369",
                                 "pollsys 7161", "portfs 1668", "pset 1165", "p_online 968"});
}

TEST_CASE("non-var walks keep each aggregation's rows together, by variable id", "[agg][walk]") {
  const latencies l;
  CHECK(l.walk(order::keysorted) ==
        std::vector<std::string>{"p_online 968", "pollsys 7161", "portfs 1668", "pset 1165",
                                 "p_online 1051", "pollsys 120515277", "portfs 2583", "pset 1911",
                                 "p_online 9685", "pollsys 4159836122", "portfs 6948", "pset 3369"});
  CHECK(l.walk(order::valrevsorted).front() == "pollsys 4159836122");  // highest id first
}

TEST_CASE("integer keys sort as unsigned values of their size", "[agg][walk]") {
  aggregation<Count, int> signed_keys;
  aggregation<Count, char> byte_keys;
  for (int k : {0, 1, 2, -2, -1, 100}) {
    signed_keys.at(k).add();
    byte_keys.at(static_cast<char>(k)).add();
  }
  std::vector<int> ints;
  signed_keys.snapshot().walk(order::keysorted, [&](int k, std::uint64_t) { ints.push_back(k); });
  CHECK(ints == std::vector<int>{0, 1, 2, 100, -2, -1});
  std::vector<int> bytes;
  byte_keys.snapshot().walk(order::keysorted, [&](char k, std::uint64_t) { bytes.push_back(k); });
  CHECK(bytes == std::vector<int>{0, 1, 2, 100, -2, -1});
}

TEST_CASE("aggsortkeypos starts the key comparison at that key and wraps", "[agg][walk]") {
  aggregation<Count, int, int> pairs;
  for (auto [a, b] : std::vector<std::pair<int, int>>{{1, 3}, {2, 2}, {3, 1}}) pairs.at(a, b).add();
  const auto walk = [&](const sort_options& o) {
    std::vector<std::string> out;
    pairs.snapshot().walk(order::sorted, [&](int a, int b, std::uint64_t) {
      out.push_back(std::to_string(a) + " " + std::to_string(b));
    }, o);
    return out;
  };
  CHECK(walk({}) == std::vector<std::string>{"1 3", "2 2", "3 1"});
  CHECK(walk({.keypos = 1}) == std::vector<std::string>{"3 1", "2 2", "1 3"});
  CHECK(walk({.keypos = 7}) == std::vector<std::string>{"1 3", "2 2", "3 1"});  // out of range: 0
  CHECK(walk({.sortkey = true, .keypos = 1}) == std::vector<std::string>{"3 1", "2 2", "1 3"});
}

TEST_CASE("an empty aggregation walks nothing", "[agg][walk]") {
  aggregation<Sum, std::string> none;
  int visits = 0;
  for (auto o : {order::sorted, order::unsorted, order::keysorted, order::valvarrevsorted})
    none.snapshot().walk(o, [&](std::string_view, std::int64_t) { ++visits; });
  CHECK(visits == 0);
}
