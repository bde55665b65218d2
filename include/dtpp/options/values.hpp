// The values of DTrace's options: libdtrace's syntaxes (sizes with k/m/g/t, rates with ns ... day
// or hz, toggles yes/no/on/off ...), the check it makes of a value, and the number it keeps.
#pragma once

#include <strings.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "dtpp/options/table.hpp"

namespace dtpp::options {

/// A non-negative integer in C's notations (42, 0x2a, 052) making up the whole text.
inline std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  const std::string digits(text);
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits[0]))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const auto value = std::strtoull(digits.c_str(), &end, 0);
  if (*end != '\0' || errno != 0) return std::nullopt;
  return value;
}

/// libdtrace's size syntax: an integer with an optional k, m, g or t suffix.
inline std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t scale = 1;
  const auto power = text.empty() ? std::string_view::npos
                                  : std::string_view("kmgt").find(static_cast<char>(
                                        std::tolower(static_cast<unsigned char>(text.back()))));
  if (power != std::string_view::npos) {
    scale <<= 10 * (power + 1);
    text.remove_suffix(1);
  }
  const auto value = parse_unsigned(text);
  if (!value || *value > UINT64_MAX / scale) return std::nullopt;
  return *value * scale;
}

/// A rate in nanoseconds: a count with a time suffix (none: nanoseconds), or per second (hz);
/// unset when it is not one.
inline std::int64_t rate_value(const std::string& text) {
  struct unit {
    const char* name;
    std::int64_t ns;  // 0: hz, a count per second
  };
  constexpr std::int64_t second = 1'000'000'000;
  static constexpr unit units[] = {{"", 1},  {"ns", 1},          {"nsec", 1},
                                   {"us", 1000},                 {"usec", 1000},
                                   {"ms", second / 1000},        {"msec", second / 1000},
                                   {"s", second},                {"sec", second},
                                   {"m", 60 * second},           {"min", 60 * second},
                                   {"h", 3600 * second},         {"hour", 3600 * second},
                                   {"d", 86400 * second},        {"day", 86400 * second},
                                   {"hz", 0}};
  char* end = nullptr;
  const auto n = static_cast<std::int64_t>(std::strtoull(text.c_str(), &end, 0));
  for (const auto& [name, ns] : units)
    if (::strcasecmp(end, name) == 0) return ns == 0 ? (n == 0 ? 0 : second / n) : n * ns;
  return unset;
}

namespace detail {

inline bool is_toggle(std::string_view value) {
  static constexpr const char* words[] = {"yes",     "no",       "enable", "disable",
                                          "enabled", "disabled", "true",   "false",
                                          "on",      "off",      "set",    "unset"};
  if (value.empty()) return true;
  for (const char* w : words)
    if (value.size() == std::string_view(w).size() &&
        ::strncasecmp(value.data(), w, value.size()) == 0)
      return true;
  return parse_unsigned(value).has_value();
}

inline bool is_rate(std::string_view value) {
  const std::string text(value);
  char* end = nullptr;
  errno = 0;
  (void)std::strtoull(text.c_str(), &end, 0);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || errno != 0)
    return false;
  return rate_value(text) != unset;
}

inline bool is_choice(std::string_view value, std::string_view choices) {
  for (std::size_t at = 0, bar; (bar = choices.find('|', at)) != std::string_view::npos;
       at = bar + 1)
    if (choices.substr(at, bar - at) == value) return true;
  return false;
}

// The versions of D that dtrace-utils defines (dt_version.h), which `-x version` may name.
inline bool is_version(std::string_view value) {
  for (const char* v : {"1.0", "1.1", "1.2", "1.2.1", "1.2.2", "1.3", "1.4", "1.4.1", "1.5", "1.6", "1.6.1",
                        "1.6.2", "1.6.3", "1.6.4", "2.0", "2.0.1"})
    if (value == v) return true;
  return false;
}

}  // namespace detail

/// Why libdtrace would refuse to set `name` to `value` (null: no `=value`), in its words.
inline std::optional<std::string_view> option_error(std::string_view name, const char* value) {
  const auto* spec = find_option(name);
  if (!spec) return "Invalid option name";
  bool fine = true;
  switch (spec->kind) {
    case value_kind::none:
      fine = value == nullptr;
      break;
    case value_kind::any:
      break;
    case value_kind::text:
      fine = value != nullptr;
      break;
    case value_kind::toggle:
      fine = !value || detail::is_toggle(value);
      break;
    case value_kind::size:
      // strsize must leave room for a string: libdtrace's minimum is two bytes, its maximum 4 GiB.
      if (name == "strsize") {
        const auto size = value ? parse_size(value) : std::nullopt;
        fine = size && *size >= 2 && *size <= UINT32_MAX;
      } else {
        fine = !value || parse_size(value);
      }
      break;
    case value_kind::rate:
      fine = !value || detail::is_rate(value);
      break;
    case value_kind::choice:
      fine = value && detail::is_choice(value, spec->choices);
      break;
  }
  if (!fine) return "Invalid value for specified option";
  if (name == "iregs" || name == "tregs") {
    // dtrace-utils' integer registers are its BPF code generator's eight: fewer cannot compile D
    // (dt_opt_iregs); tuple registers bound an aggregation's keys (dt_opt_tregs).
    const auto n = std::atoi(value);
    if (n <= 0 || (name == "iregs" && n > 8)) return "Invalid value for specified option";
    if (name == "iregs" && n < 8) return "Insufficient registers to generate code";
  }
  if (name == "version" && !detail::is_version(value)) return "Requested version is not supported by compiler";
  return std::nullopt;
}

/// Whether a toggle's value turns it off: one of libdtrace's negative words.
inline bool is_negative(std::string_view text) {
  for (const char* no : {"no", "disable", "disabled", "false", "off", "unset"})
    if (text.size() == std::string_view(no).size() &&
        ::strncasecmp(text.data(), no, text.size()) == 0)
      return true;
  return false;
}

/// A toggle: set without a value is 0, yes/on/... 1, no/off/... or an empty value unset, a
/// number itself (dt_opt_runtime).
inline std::int64_t toggle_value(const std::string& text) {
  if (text.empty() || is_negative(text)) return unset;
  if (const auto n = parse_unsigned(text)) return static_cast<std::int64_t>(*n);
  return 1;  // yes, enable, enabled, true, on, set
}

/// The value libdtrace keeps for a run-time option's (valid) setting (null: no `=value`); unset
/// clears it.
inline std::int64_t runtime_value(const option_spec& spec, const char* value) {
  if (spec.name == "printsize") {  // dt_opt_printsize: 8 KiB unless 1 .. 64 KiB, 8-byte aligned
    auto size = value ? static_cast<std::int64_t>(parse_size(value).value_or(0)) : 0;
    if (size <= 0 || size > 65536) size = 8192;
    return (size + 7) / 8 * 8;
  }
  if (!value) return 0;
  const std::string text(value);
  switch (spec.kind) {
    case value_kind::toggle:
      return toggle_value(text);
    case value_kind::rate:
      return rate_value(text);
    case value_kind::choice: {  // the choice's index: DTRACEOPT_BUFPOLICY_RING is 0 ...
      std::int64_t index = 0;
      for (std::size_t at = 0, bar; (bar = spec.choices.find('|', at)) != std::string_view::npos;
           at = bar + 1, ++index)
        if (spec.choices.substr(at, bar - at) == text) return index;
      return unset;
    }
    default:  // sizes, and lockmem's size or "unlimited" (RLIM_INFINITY)
      if (text == "unlimited") return -1;
      return static_cast<std::int64_t>(parse_size(text).value_or(0));
  }
}

}  // namespace dtpp::options
