// Seed 000's Example 36 done the typed way: the exact standard deviation of each key, next to
// the integer one dtrace(1) prints for the same aggregation.
#include <cstdio>
#include <string>

#include "dtpp/dtpp.hpp"

int main() {
  // The D program's fifteen samples: @c[key] = stddev(value).
  dtpp::aggregation<dtpp::StdDev, std::string> c(dtpp::StdDev{}, "c");
  for (int v : {1, 2, 3, 4, 5}) c.at("foo").add(v);
  for (int v : {6, 8, 10, 12, 14}) c.at("bar").add(v);
  for (int v : {17, 20, 23, 26, 29}) c.at("baz").add(v);

  const auto snap = c.snapshot();
  std::printf("%10s %10s %11s %11s\n", "NAME", "COUNT", "AVG", "STDDEV");
  snap.walk(dtpp::order::keysorted, [](std::string_view name, const dtpp::stddev& s) {
    std::printf("%10.*s %10llu %11.3f %11.3f\n", static_cast<int>(name.size()), name.data(),
                static_cast<unsigned long long>(s.count), s.mean(), s.stddev_value());
  });

  // What dtrace(1) prints at exit: a newline, then the aggregation sorted by value.
  std::printf("\n%s", dtpp::print::format_aggregation(snap.data()).c_str());
}
