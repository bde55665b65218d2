// has_uprobes_trampoline(): whether this process has the kernel's [uprobes-trampoline] mapped,
// that is whether a uprobe on one of its 5-byte nops became a call (Linux 6.18).
#pragma once

#include <fstream>
#include <string>

inline bool has_uprobes_trampoline() {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.ends_with("[uprobes-trampoline]")) return true;
  return false;
}
