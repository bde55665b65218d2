// The options of one consumer: what dtrace_setopt() set and dtrace_getopt() reads, checked as
// libdtrace checks them, with the typed values the rest of dtpp runs by.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "dtpp/options/table.hpp"
#include "dtpp/options/values.hpp"

namespace dtpp::options {

/// Why setopt() refused, as libdtrace's EDT_BADOPTNAME, EDT_BADOPTVAL and EDT_ACTIVE.
struct refusal {
  enum class reason { bad_name, bad_value, tracing_active } why;
  std::string_view message;  ///< libdtrace's words: "Invalid option name" ...
};

class option_set {
 public:
  /// DTrace's defaults.
  option_set() {
    for (const auto& o : option_table)
      if (o.initial != unset) values_.emplace(o.name, o.initial);
  }

  /// dtrace_setopt(): `value` in DTrace's syntax (none: set a toggle, or a flag). Once tracing is
  /// `active`, only dynamic run-time options change. Nothing changes when it refuses.
  std::optional<refusal> set(std::string_view name, std::optional<std::string_view> value,
                             bool active = false) {
    const auto* spec = find_option(name);
    if (!spec) return refusal{refusal::reason::bad_name, "Invalid option name"};
    const std::string text(value.value_or(""));
    const char* given = value ? text.c_str() : nullptr;
    if (const auto why = option_error(name, given)) return refusal{refusal::reason::bad_value, *why};
    if (spec->effect == when::compile) {
      settings_[std::string(name)] = text;
      return std::nullopt;
    }
    if (active && spec->effect != when::dynamic)
      return refusal{refusal::reason::tracing_active, "Operation illegal when tracing is active"};
    const auto parsed = runtime_value(*spec, given);
    if (parsed == unset)
      values_.erase(std::string(name));
    else
      values_[std::string(name)] = parsed;
    return std::nullopt;
  }

  /// A run-time option's value as libdtrace keeps it (sizes in bytes, rates in nanoseconds,
  /// toggles 0 or 1 ...), or nothing when unset.
  std::optional<std::int64_t> number(std::string_view name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
  }

  /// A compile-time option's value ("" when set without one), or nothing when never set.
  std::optional<std::string> text(std::string_view name) const {
    const auto it = settings_.find(name);
    return it == settings_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }

  /// Whether an option is on: a run-time one set, or a compile-time one given.
  bool on(std::string_view name) const { return number(name) || text(name); }

  /// A size or count, or `otherwise` when unset (or negative).
  std::size_t size(std::string_view name, std::size_t otherwise) const {
    const auto n = number(name);
    return n && *n >= 0 ? static_cast<std::size_t>(*n) : otherwise;
  }

  /// The engine -x engine= asks for: "auto" unless set.
  std::string engine() const { return text("engine").value_or("auto"); }

 private:
  std::map<std::string, std::int64_t, std::less<>> values_;    // run-time options that are set
  std::map<std::string, std::string, std::less<>> settings_;  // compile-time ones given
};

}  // namespace dtpp::options
