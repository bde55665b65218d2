// DTrace's stability attributes: the levels and dependency classes by name, in its order (Internal
// and Unknown first), as `#pragma D attributes` and dtrace -v's reports write them; the triples
// they make, and what each provider declares for its probes' fields and arguments.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace dtpp::d {

inline constexpr std::array<std::string_view, 8> stability_names{
    "Internal", "Private", "Obsolete", "External", "Unstable", "Evolving", "Stable", "Standard"};

inline constexpr std::array<std::string_view, 6> dependency_class_names{
    "Unknown", "CPU", "Platform", "Group", "ISA", "Common"};

enum stability : int { internal_, private_, obsolete_, external_, unstable_, evolving_, stable_, standard_ };
enum dependency_class : int { unknown_, cpu_, platform_, group_, isa_, common_ };

/// One of DTrace's attribute triples: name and data stability, dependency class (as numbers in
/// DTrace's order). The default is Stable/Stable/Common, what D's own identifiers have.
struct attributes {
  int name = stable_, data = stable_, dependency = common_;
  friend attributes min(const attributes& a, const attributes& b) {
    return {std::min(a.name, b.name), std::min(a.data, b.data), std::min(a.dependency, b.dependency)};
  }
};

/// A provider's attributes for its provider, module, function and name fields and its arguments.
struct provider_attributes {
  attributes provider, module, function, name, arguments;
};

/// What dtrace-utils declares for a description whose provider is not known (empty, a glob, or
/// matching nothing): Unstable/Unstable/Common throughout.
inline constexpr attributes unstable_common{unstable_, unstable_, common_};
inline constexpr provider_attributes unknown_provider{unstable_common, unstable_common, unstable_common,
                                                      unstable_common, unstable_common};

/// The attributes dtrace-utils declares for the provider dtpp's probes of that name stand for
/// (tracepoint: its rawtp; pid and USDT providers: uprobes).
inline provider_attributes attributes_of(std::string_view provider) {
  if (provider == "dtrace")
    return {{stable_, stable_, common_}, {private_, private_, unknown_}, {private_, private_, unknown_},
            {stable_, stable_, common_}, {stable_, stable_, common_}};
  if (provider == "profile")
    return {{evolving_, evolving_, common_}, {unstable_, unstable_, unknown_}, {private_, private_, unknown_},
            {evolving_, evolving_, common_}, {evolving_, evolving_, common_}};
  if (provider == "syscall")
    return {{evolving_, evolving_, common_}, {private_, private_, unknown_}, {private_, private_, isa_},
            {evolving_, evolving_, common_}, {private_, private_, isa_}};
  if (provider == "tracepoint")
    return {{evolving_, evolving_, isa_}, {private_, private_, unknown_}, {private_, private_, unknown_},
            {private_, private_, isa_}, {private_, private_, isa_}};
  if (provider == "sched" || provider == "proc" || provider == "io")
    return {{evolving_, evolving_, isa_}, {private_, private_, unknown_}, {private_, private_, unknown_},
            {evolving_, evolving_, isa_}, {evolving_, evolving_, isa_}};
  return {{evolving_, evolving_, isa_}, {private_, private_, unknown_}, {private_, private_, unknown_},
          {evolving_, evolving_, isa_}, {private_, private_, unknown_}};
}

/// Whether a description's field names no one thing: empty, or a glob.
inline bool is_glob_field(std::string_view field) {
  return field.empty() || field.find_first_of("*?[") != std::string_view::npos;
}

/// A probe description's attributes, as dtrace-utils computes them (dt_probe_info): its provider's
/// (unknown_provider's when the provider is a glob), the least of those of the fields it names.
inline attributes description_attributes(std::string_view provider, std::string_view module,
                                         std::string_view function, std::string_view name) {
  const auto a = is_glob_field(provider) ? unknown_provider : attributes_of(provider);
  auto described = a.provider;
  if (!is_glob_field(module)) described = min(described, a.module);
  if (!is_glob_field(function)) described = min(described, a.function);
  if (!is_glob_field(name)) described = min(described, a.name);
  return described;
}

/// The attributes of the provider whose probes a description matches, which probeprov,
/// probemod, probefunc, probename and args[] take in its clause: a bare BEGIN is the dtrace
/// provider's, a bare tick-1s profile's; a description of no one provider, unknown_provider's.
inline provider_attributes context_attributes(std::string_view provider, std::string_view name) {
  if (!is_glob_field(provider)) return attributes_of(provider);
  if (provider.empty() && (name == "BEGIN" || name == "END" || name == "ERROR")) return attributes_of("dtrace");
  if (provider.empty() && (name.rfind("tick-", 0) == 0 || name.rfind("profile-", 0) == 0))
    return attributes_of("profile");
  return unknown_provider;
}

}  // namespace dtpp::d
