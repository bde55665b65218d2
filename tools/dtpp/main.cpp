// dtpp, the dtrace(1)-style command. Today it compiles D programs (-e) and prints them checked
// (-S); running them comes with the in-process engine (issue #4) and the kernel shim (issue #5).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "command_line.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/d/parser.hpp"
#include "preprocess.hpp"

namespace dtpp::command {
namespace {

std::optional<std::string> read_file(const std::string& path, int& error) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = errno;
    return std::nullopt;
  }
  std::string text;
  char buffer[65536];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
  error = std::ferror(file) ? EIO : 0;
  std::fclose(file);
  if (error != 0) return std::nullopt;
  return text;
}

/// What a program's diagnostics are rendered against: its compiled text, and where each of its
/// lines came from when cpp made it.
struct loaded_program {
  d::source_file source;
  std::optional<std::vector<line_origin>> origins;
};

/// Reads a -s script (through cpp with -C) or takes a -n description; says why it cannot.
std::optional<loaded_program> load(const settings& s, const program_spec& program) {
  if (!program.script) return loaded_program{d::source_file(program.text, program.text), {}};
  int error = 0;
  auto text = read_file(program.text, error);
  if (!text) {
    detail::complain(s, "failed to open " + program.text + ": " + std::strerror(error));
    return std::nullopt;
  }
  if (!s.preprocess) return loaded_program{d::source_file(program.text, std::move(*text)), {}};
  auto result =
      preprocess(cpp_arguments(s.cpp, s.cpp_arguments, s.stdc), program.text, std::move(*text));
  if (!result.output) {
    detail::complain(s, "failed to compile script " + program.text + ": " + result.error);
    return std::nullopt;
  }
  return loaded_program{d::source_file(program.text, std::move(result.output->text)),
                        std::move(result.output->origins)};
}

bool sets_option(const d::ast::program& program, std::string_view name) {
  for (const auto& item : program.items)
    if (const auto* p = std::get_if<d::ast::pragma>(&item); p && p->name == name) return true;
  return false;
}

/// Compiles one program, prints its diagnostics (or, with -S, the checked program); true when it
/// compiled.
bool compile(const settings& s, const program_spec& program) {
  auto loaded = load(s, program);
  if (!loaded) return false;
  auto options = s.compile;
  // $0: the script's path for -s, the command as invoked for -n (dtrace(1)'s g_argv[0]).
  options.arguments = {program.script ? program.text : s.argv0};
  options.arguments.insert(options.arguments.end(), s.operands.begin(), s.operands.end());

  // parse() and check() apart, rather than compile(), so that a `#pragma D option errtags`
  // shows tags on syntax errors too.
  auto parsed = d::parse(loaded->source);
  auto result = parsed.errors.empty() ? d::check(parsed.program, loaded->source, options)
                                      : d::compile_result{{}, std::move(parsed.errors)};
  const d::render_options render_options{
      s.name, s.errtags || sets_option(parsed.program, "errtags"), program.script};
  for (const auto& error : result.errors) {
    const auto text = loaded->origins
                          ? render(error, loaded->source, *loaded->origins, render_options)
                          : d::render(error, loaded->source, render_options);
    std::fputs(text.c_str(), stderr);
  }
  if (!result.errors.empty()) return false;
  if (s.show_programs) {
    std::fputs(d::dump(result.program).c_str(), stdout);
    std::fflush(stdout);  // keeps stdout and stderr in program order when both go to one place
  }
  return true;
}

int run(const settings& s) {
  bool compiled = true;
  for (const auto& program : s.programs) compiled &= compile(s, program);
  if (!compiled) return exit_failure;
  if (s.list) {
    detail::complain(s, "listing probes needs the kernel shim (issue #5)");
    return exit_failure;
  }
  if (s.compile_only) return exit_success;
  if (s.programs.empty()) {
    detail::complain(s, "no probes specified");
    return exit_failure;
  }
  detail::complain(s, "running D programs is not available yet (issue #4); use -e to compile only");
  return exit_failure;
}

}  // namespace
}  // namespace dtpp::command

int main(int argc, char* argv[]) {
  dtpp::command::settings settings;
  if (const auto status = dtpp::command::read_command_line(argc, argv, settings)) return *status;
  return dtpp::command::run(settings);
}
