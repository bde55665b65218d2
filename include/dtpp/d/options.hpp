// DTrace's options (-x name[=value], #pragma D option, setopt()): every name libdtrace knows,
// and the check it makes of the value, so that dtpp refuses what dtrace(1) refuses.
#pragma once

#include <strings.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace dtpp::d {

/// What an option's value must look like (the dt_opt_* handler libdtrace gives the option).
enum class value_kind : std::uint8_t {
  none,    ///< a flag: `-x errtags`, never `-x errtags=1`
  any,     ///< a value or none, unchecked
  text,    ///< a value is required, unchecked
  toggle,  ///< none (on), yes/no, on/off, ... or a non-negative integer
  size,    ///< none, or a non-negative integer with an optional k, m, g or t suffix
  rate,    ///< none, or a non-negative integer with an optional ns ... day or hz suffix
  choice,  ///< one of `choices`
};

struct option_spec {
  std::string_view name;
  value_kind kind = value_kind::any;
  std::string_view choices = {};  ///< for choice: the words, each followed by '|'
};

/// Oracle DTrace 2.0's options (libdtrace/dt_options.c), and the illumos aggregation-output
/// options that dtpp's printing knows (agghist, aggpack, aggzoom) with encoding and temporal,
/// which the D checker accepts in pragmas too.
inline constexpr option_spec option_table[] = {
    {"aggpercpu", value_kind::none},
    {"agghist", value_kind::toggle},
    {"aggpack", value_kind::toggle},
    {"aggrate", value_kind::rate},
    {"aggsize", value_kind::size},
    {"aggsortkey", value_kind::toggle},
    {"aggsortkeypos", value_kind::toggle},
    {"aggsortpos", value_kind::toggle},
    {"aggsortrev", value_kind::toggle},
    {"aggzoom", value_kind::toggle},
    {"amin", value_kind::text},
    {"argref", value_kind::none},
    {"bpflog", value_kind::toggle},
    {"bpflogsize", value_kind::size},
    {"bufpolicy", value_kind::choice, "ring|fill|switch|"},
    {"bufresize", value_kind::choice, "auto|manual|"},
    {"bufsize", value_kind::size},
    {"cleanrate", value_kind::rate},
    {"core", value_kind::none},
    {"cpp", value_kind::none},
    {"cppargs", value_kind::text},
    {"cpphdrs", value_kind::none},
    {"cpppath", value_kind::text},
    {"cpu", value_kind::toggle},
    {"ctfpath", value_kind::text},
    {"ctypes", value_kind::text},
    {"debug", value_kind::none},
    {"debugassert", value_kind::text},
    {"defaultargs", value_kind::none},
    {"define", value_kind::text},
    {"destructive", value_kind::toggle},
    {"disasm", value_kind::text},
    {"dofstashpath", value_kind::text},
    {"droptags", value_kind::any},
    {"dtypes", value_kind::text},
    {"dynvarsize", value_kind::size},
    {"empty", value_kind::none},
    {"encoding", value_kind::text},
    {"engine", value_kind::choice, "auto|kernel|inproc|"},  // dtpp's own: who runs the program
    {"errsource", value_kind::choice, "on|off|"},  // dtpp's own: source excerpts under errors
    {"errtags", value_kind::none},
    {"evaltime", value_kind::choice, "exec|preinit|postinit|main|"},
    {"flowindent", value_kind::toggle},
    {"grabanon", value_kind::toggle},
    {"incdir", value_kind::text},
    {"iregs", value_kind::text},
    {"jstackframes", value_kind::toggle},
    {"jstackstrsize", value_kind::size},
    {"kdefs", value_kind::none},
    {"knodefs", value_kind::none},
    {"late", value_kind::choice, "dynamic|static|"},
    {"lazyload", value_kind::any},
    {"ldpath", value_kind::text},
    {"libdir", value_kind::text},
    {"linkmode", value_kind::choice, "kernel|dynamic|static|"},
    {"linknommap", value_kind::any},
    {"linktype", value_kind::text},
    {"lockmem", value_kind::text},
    {"maxframes", value_kind::toggle},
    {"modpath", value_kind::text},
    {"nolibs", value_kind::none},
    {"noresolve", value_kind::toggle},
    {"nspec", value_kind::toggle},
    {"pcapsize", value_kind::size},
    {"pgmax", value_kind::text},
    {"preallocate", value_kind::text},
    {"printsize", value_kind::size},
    {"procfspath", value_kind::text},
    {"pspec", value_kind::none},
    {"quiet", value_kind::toggle},
    {"quietresize", value_kind::toggle},
    {"rawbytes", value_kind::toggle},
    {"scratchsize", value_kind::size},
    {"specsize", value_kind::size},
    {"stackframes", value_kind::toggle},
    {"stackindent", value_kind::toggle},
    {"statusrate", value_kind::rate},
    {"stdc", value_kind::choice, "a|c|s|t|"},
    {"strip", value_kind::none},
    {"strsize", value_kind::size},
    {"switchrate", value_kind::rate},
    {"syslibdir", value_kind::text},
    {"sysslice", value_kind::text},
    {"temporal", value_kind::toggle},
    {"tree", value_kind::text},
    {"tregs", value_kind::text},
    {"udefs", value_kind::none},
    {"undef", value_kind::text},
    {"unodefs", value_kind::none},
    {"useruid", value_kind::text},
    {"ustackframes", value_kind::toggle},
    {"verbose", value_kind::none},
    {"version", value_kind::text},
    {"zdefs", value_kind::none},
};

inline const option_spec* find_option(std::string_view name) {
  for (const auto& o : option_table)
    if (o.name == name) return &o;
  return nullptr;
}

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
  static constexpr const char* units[] = {"",    "ns", "nsec", "us", "usec", "ms", "msec", "s",
                                          "sec", "m",  "min",  "h",  "hour", "d",  "day",  "hz"};
  const std::string text(value);
  char* end = nullptr;
  errno = 0;
  (void)std::strtoull(text.c_str(), &end, 0);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || errno != 0)
    return false;
  for (const char* u : units)
    if (::strcasecmp(end, u) == 0) return true;
  return false;
}

inline bool is_choice(std::string_view value, std::string_view choices) {
  for (std::size_t at = 0, bar; (bar = choices.find('|', at)) != std::string_view::npos;
       at = bar + 1)
    if (choices.substr(at, bar - at) == value) return true;
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
  return std::nullopt;
}

}  // namespace dtpp::d
