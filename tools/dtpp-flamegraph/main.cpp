// dtpp-flamegraph: folded stacks on standard input (dtpp -x oformat=folded, or any tool that
// writes FlameGraph's folded format) to an SVG flame graph on standard output, as
// `dtpp -x flamegraph=FILE.svg` draws one.
//
//     dtpp -q -x oformat=folded -n 'profile-997 { @[stack()] = count(); }' > out.folded
//     dtpp-flamegraph --title "CPU" < out.folded > cpu.svg
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "dtpp/print/flamegraph.hpp"

namespace {

int usage() {
  std::fputs("usage: dtpp-flamegraph [--title TEXT] < stacks.folded > graph.svg\n", stderr);
  return 2;
}

}  // namespace

int main(int argc, char* argv[]) {
  dtpp::print::flamegraph_options options;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--title") == 0 && i + 1 < argc)
      options.title = argv[++i];
    else
      return usage();
  }
  dtpp::print::folded_stacks stacks;
  std::string line;
  for (std::size_t number = 1; std::getline(std::cin, line); ++number) {
    if (line.empty()) continue;
    // The count follows the last space; frames may hold spaces.
    const auto space = line.rfind(' ');
    char* end = nullptr;
    errno = 0;
    const long long count = space == std::string::npos ? 0 : std::strtoll(line.c_str() + space + 1, &end, 10);
    if (space == std::string::npos || space == 0 || end == line.c_str() + space + 1 || *end != '\0' || errno != 0) {
      std::fprintf(stderr, "dtpp-flamegraph: line %zu: not a folded stack (frame;frame;... count)\n", number);
      return 1;
    }
    stacks[line.substr(0, space)] += count;
  }
  const auto svg = dtpp::print::flamegraph_svg(stacks, options);
  if (std::fwrite(svg.data(), 1, svg.size(), stdout) != svg.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "dtpp-flamegraph: failed to write the graph: %s\n", std::strerror(errno));
    return 1;
  }
  return 0;
}
