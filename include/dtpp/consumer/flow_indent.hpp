// flowindent (-F): a probe line that shows the flow of calls, as dtrace(1) prints it. An entry
// probe (named "entry" or "...-entry") prints " -> func" and indents what follows on its CPU by
// two spaces; a return probe ("return", "...-return") comes back two and prints " <- func"
// (system calls " => " and " <= "); any other probe prints "| func:name" at the current depth.
// The next clause of the same entry probe's firing does not indent again.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "dtpp/engine/source.hpp"

namespace dtpp::consumer {

class flow_indent {
 public:
  /// The FUNCTION column's text for a firing of `probe` (the enabled probe `f.epid`), and the
  /// depth changed for the firings after it.
  std::string function_column(const engine::probe_info& probe, const engine::firing& f) {
    auto& cpu = cpus_[f.cpu];
    auto flow = kind(probe.name);
    if (flow == entry && probe.id == cpu.last_probe && f.epid != cpu.last_epid) flow = none;
    cpu.last_probe = probe.id;
    cpu.last_epid = f.epid;
    if (flow == ret && cpu.indent > 0) cpu.indent -= 2;
    const bool syscall = probe.provider == "syscall";
    std::string text(cpu.indent, ' ');
    if (flow == none) return text + "| " + probe.function + ":" + probe.name;
    text += flow == entry ? (syscall ? " => " : " -> ") : (syscall ? " <= " : " <- ");
    text += probe.function;
    if (flow == entry) cpu.indent += 2;
    return text;
  }

 private:
  enum flow_kind { none, entry, ret };
  struct cpu_state {
    std::size_t indent = 0;
    std::uint32_t last_probe = 0, last_epid = 0;
  };

  // "entry" or a name ending in "-entry" (not "carpentry"); the same for "return".
  static flow_kind kind(std::string_view name) {
    const auto is = [&](std::string_view word) {
      return name == word || (name.size() > word.size() && name.ends_with(word) && name[name.size() - word.size() - 1] == '-');
    };
    return is("entry") ? entry : is("return") ? ret : none;
  }

  std::map<std::uint32_t, cpu_state> cpus_;  // by CPU
};

}  // namespace dtpp::consumer
