// The firing period a profile-N or tick-N probe name asks for.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace dtpp::ir {

/// Nanoseconds between firings of profile-N / tick-N: N per second without a suffix (or with
/// hz), else N of the suffix's unit (ns, us, ms, s, m, h, d and their long forms). The checker has
/// validated the name.
inline std::uint64_t period_of(const std::string& name) {
  const auto digits = name.substr(name.find('-') + 1);
  std::size_t n = 0;
  while (n < digits.size() && std::isdigit(static_cast<unsigned char>(digits[n]))) ++n;
  const double count = std::strtod(digits.substr(0, n).c_str(), nullptr);
  std::string suffix = digits.substr(n);
  for (auto& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  struct unit { const char* name; double ns; };
  static const unit units[] = {{"ns", 1}, {"nsec", 1}, {"us", 1e3}, {"usec", 1e3}, {"ms", 1e6},
                               {"msec", 1e6}, {"s", 1e9}, {"sec", 1e9}, {"m", 60e9}, {"min", 60e9},
                               {"h", 3600e9}, {"hour", 3600e9}, {"d", 86400e9}, {"day", 86400e9}};
  for (const auto& u : units)
    if (suffix == u.name) return static_cast<std::uint64_t>(count * u.ns);
  return static_cast<std::uint64_t>(1e9 / count);
}

}  // namespace dtpp::ir
