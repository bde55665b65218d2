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

/// One block of attributes as dtrace -v prints them: a title, then the three values.
inline void append_attributes(std::string& text, const char* title, const d::attributes& a) {
  print::detail::append(text, "\n\t%s\n\t\tIdentifier Names: %s\n\t\tData Semantics:   %s\n\t\tDependency Class: %s\n",
                        title, d::stability_names[a.name].data(), d::stability_names[a.data].data(),
                        d::dependency_class_names[a.dependency].data());
}

/// The block dtrace -l -v prints after a probe's line: the probe's attributes (the minimum over
/// its provider and the fields it names), its arguments' attributes and their types.
inline std::string verbose_probe_info(const engine::probe_info& p, const std::vector<ir::probe_argument>& arguments) {
  std::string text;
  append_attributes(text, "Probe Description Attributes", d::description_attributes(p.provider, p.module, p.function, p.name));
  append_attributes(text, "Argument Attributes", d::attributes_of(p.provider).arguments);
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
