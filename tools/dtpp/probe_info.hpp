// dtrace -l -v: what each listed probe's stability is and what its arguments are, as DTrace
// prints them after the probe's line.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "dtpp/d/stability.hpp"
#include "dtpp/engine/source.hpp"
#include "dtpp/ir/type_table.hpp"
#include "dtpp/print/append.hpp"

namespace dtpp::command {

/// One of DTrace's attribute triples: name and data stability, dependency class (as numbers in
/// DTrace's order, from Internal and Unknown up).
struct attributes {
  int name = 0, data = 0, dependency = 0;
  friend attributes min(const attributes& a, const attributes& b) {
    return {std::min(a.name, b.name), std::min(a.data, b.data), std::min(a.dependency, b.dependency)};
  }
};

/// A provider's attributes for its provider, module, function and name fields and its arguments,
/// as dtrace-utils declares them for the provider dtpp's matches (tracepoint: its rawtp).
struct provider_attributes {
  attributes provider, module, function, name, arguments;
};

inline provider_attributes attributes_of(const std::string& provider) {
  enum { internal_, private_, obsolete_, external_, unstable_, evolving_, stable_ };
  enum { unknown_, cpu_, platform_, group_, isa_, common_ };
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
  // pid and USDT providers: uprobes
  return {{evolving_, evolving_, isa_}, {private_, private_, unknown_}, {private_, private_, unknown_},
          {evolving_, evolving_, isa_}, {private_, private_, unknown_}};
}

/// The block dtrace -l -v prints after a probe's line: the probe's attributes (the minimum over
/// its provider and the fields it names), its arguments' attributes and their types.
inline std::string verbose_probe_info(const engine::probe_info& p, const std::vector<ir::probe_argument>& arguments) {
  const auto a = attributes_of(p.provider);
  auto described = a.provider;
  if (!p.module.empty()) described = min(described, a.module);
  if (!p.function.empty()) described = min(described, a.function);
  if (!p.name.empty()) described = min(described, a.name);
  std::string text;
  const auto block = [&](const char* title, const attributes& t) {
    print::detail::append(text, "\n\t%s\n\t\tIdentifier Names: %s\n\t\tData Semantics:   %s\n\t\tDependency Class: %s\n",
                          title, d::stability_names[t.name].data(), d::stability_names[t.data].data(),
                          d::dependency_class_names[t.dependency].data());
  };
  block("Probe Description Attributes", described);
  block("Argument Attributes", a.arguments);
  text += "\n\tArgument Types\n";
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const auto& a = arguments[i];  // a translated argument as D sees it, as DTrace lists it
    print::detail::append(text, "\t\targs[%zu]: %s\n", i, (a.translated.empty() ? a.type_name : a.translated).c_str());
  }
  if (arguments.empty()) text += "\t\tNone\n";
  text += "\n";
  return text;
}

}  // namespace dtpp::command
