// The file-backed mappings of a process, from /proc/PID/maps: which object a program counter
// falls in, and at what offset of its file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dtpp::symbols {

struct mapping {
  std::uint64_t start = 0, end = 0;  ///< [start, end) in the process
  std::uint64_t offset = 0;          ///< the file offset mapped at `start`
  bool executable = false;
  std::string path;                  ///< empty or "[heap]"-like for mappings of no file
};

/// The mappings of process `pid`; none when the process is gone (or its maps unreadable).
/// Defined in src/symbols/process_maps.cpp.
std::vector<mapping> read_maps(std::int64_t pid);

/// The mappings of /proc/PID/maps text, for tests.
std::vector<mapping> parse_maps(const std::string& text);

}  // namespace dtpp::symbols
