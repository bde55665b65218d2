// Golden files: every tests/d/golden/NAME.d compiles to exactly NAME.expect, which holds either
// the rendered diagnostics (with -xerrtags) or the checked program's dump. NAME.args, when
// present, holds the macro arguments $1, $2 ..., one per line.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dtpp/d/check.hpp"

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string compile_to_text(const std::filesystem::path& script) {
  using namespace dtpp::d;
  const source_file source(script.filename().string(), read(script));
  compile_options options;
  options.arguments = {script.filename().string()};
  auto args_file = script;
  args_file.replace_extension(".args");
  if (std::filesystem::exists(args_file)) {
    std::istringstream lines(read(args_file));
    for (std::string line; std::getline(lines, line);) options.arguments.push_back(line);
  }
  const auto result = compile(source, options);
  if (result.errors.empty()) return dump(result.program);
  std::string out;
  for (const auto& e : result.errors) out += render(e, source, {.program = "dtpp", .errtags = true, .script = true});
  return out;
}

}  // namespace

TEST_CASE("every golden script compiles to its expected diagnostics or program", "[d][golden]") {
  const std::filesystem::path dir = std::filesystem::path(DTPP_TEST_DATA) / "golden";
  std::vector<std::filesystem::path> scripts;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".d") scripts.push_back(entry.path());
  std::sort(scripts.begin(), scripts.end());
  REQUIRE(scripts.size() >= 40);
  for (const auto& script : scripts) {
    auto expect = script;
    expect.replace_extension(".expect");
    INFO("golden file " << script.filename().string());
    REQUIRE(std::filesystem::exists(expect));
    CHECK(compile_to_text(script) == read(expect));
  }
}
