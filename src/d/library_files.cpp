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

library library_files(const std::vector<std::string>& dirs) {
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
  library result;
  std::set<std::string> placed, visiting;
  // Depth first: a file's dependencies are placed before it. One that is being placed already
  // closes a cycle.
  const auto place = [&](const auto& self, const fs::path& path) -> void {
    const auto name = path.filename().string();
    if (placed.count(name) || !result.error.empty()) return;
    visiting.insert(name);
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    for (const auto& dependency : dependencies(text.str())) {
      const auto found = std::find_if(paths.begin(), paths.end(), [&](const fs::path& p) { return p.filename() == dependency; });
      if (found == paths.end()) {
        result.error = "Invalid library dependency in " + path.string() + ": " + (path.parent_path() / dependency).string();
      } else if (visiting.count(dependency)) {
        result.error = "Cyclic dependency detected: " + found->string() + " => " + path.string();
      } else {
        self(self, *found);
      }
      if (!result.error.empty()) return;
    }
    visiting.erase(name);
    placed.insert(name);
    if (in) result.files.emplace_back(path.string(), text.str());
  };
  for (const auto& p : paths) place(place, p);
  if (!result.error.empty()) result.files.clear();
  return result;
}

std::string default_library_dir() {
  std::error_code ec;
  return std::filesystem::is_directory(DTPP_D_LIBDIR, ec) ? DTPP_D_LIBDIR : DTPP_SOURCE_D_LIBDIR;
}

}  // namespace dtpp::d
