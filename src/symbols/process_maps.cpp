// /proc/PID/maps, parsed.

#include "dtpp/symbols/process_maps.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace dtpp::symbols {

std::vector<mapping> parse_maps(const std::string& text) {
  std::vector<mapping> maps;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    unsigned long long start = 0, end = 0, offset = 0;
    char permissions[8] = {};
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %*s %n", &start, &end, permissions, &offset, &path_at) < 4)
      continue;
    std::string path = path_at > 0 ? line.substr(static_cast<std::size_t>(path_at)) : std::string();
    while (!path.empty() && path.back() == ' ') path.pop_back();
    maps.push_back({start, end, offset, permissions[2] == 'x', std::move(path)});
  }
  return maps;
}

std::vector<mapping> read_maps(std::int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_maps(text.str());
}

}  // namespace dtpp::symbols
