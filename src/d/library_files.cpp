// Finding and ordering D's library files (dtpp/d/library.hpp).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dtpp/d/library.hpp"

namespace dtpp::d {

namespace {

// The files `text` depends on: its `#pragma D depends_on library name.d` lines.
std::vector<std::string> dependencies(const std::string& text) {
  std::vector<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string pragma, d, depends_on, library, name;
    if (words >> pragma >> d >> depends_on >> library >> name && pragma == "#pragma" && d == "D" &&
        depends_on == "depends_on" && library == "library")
      names.push_back(name);
  }
  return names;
}

}  // namespace

std::vector<source_file> library_files(const std::vector<std::string>& dirs) {
  namespace fs = std::filesystem;
  std::vector<fs::path> paths;
  for (const auto& dir : dirs) {
    std::error_code ec;
    std::vector<fs::path> here;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".d" && it->is_regular_file(ec)) here.push_back(it->path());
    std::sort(here.begin(), here.end());
    paths.insert(paths.end(), here.begin(), here.end());
  }
  std::vector<source_file> files;
  std::set<std::string> placed, visiting;
  // Depth first: a file's dependencies are placed before it; a cycle is broken where it closes.
  const auto place = [&](const auto& self, const fs::path& path) -> void {
    const auto name = path.filename().string();
    if (placed.count(name) || !visiting.insert(name).second) return;
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    for (const auto& dependency : dependencies(text.str()))
      for (const auto& p : paths)
        if (p.filename() == dependency) self(self, p);
    placed.insert(name);
    if (in) files.emplace_back(path.string(), text.str());
  };
  for (const auto& p : paths) place(place, p);
  return files;
}

std::string default_library_dir() {
  std::error_code ec;
  return std::filesystem::is_directory(DTPP_D_LIBDIR, ec) ? DTPP_D_LIBDIR : DTPP_SOURCE_D_LIBDIR;
}

}  // namespace dtpp::d
