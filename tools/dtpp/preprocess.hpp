// -C: running cpp(1) over a script as dtrace(1) does, and placing what it wrote back on the lines
// of the script (and of the files it included), so that diagnostics name the lines a user wrote.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/d/diagnostic.hpp"
#include "dtpp/d/source.hpp"

namespace dtpp::command {

/// Where a line of cpp's output came from.
struct line_origin {
  std::string file;        ///< empty: the script itself; else an included file, as cpp names it
  std::uint32_t line = 1;  ///< 1-based
};

struct preprocessed {
  std::string text;                  ///< cpp's output without its line markers: what is compiled
  std::vector<line_origin> origins;  ///< origins[i]: where line i + 1 of text came from
};

struct preprocess_result {
  std::optional<preprocessed> output;
  std::string error;  ///< libdtrace's words when there is no output
};

namespace detail {

/// `# 12 "file" 1 3` (GCC's line markers) or `#line 12 "file"`: the next line is line 12 of file.
inline std::optional<line_origin> line_marker(std::string_view line) {
  if (line.empty() || line[0] != '#') return std::nullopt;
  std::size_t at = 1;
  while (at < line.size() && line[at] == ' ') ++at;
  if (line.substr(at, 4) == "line") at += 4;
  while (at < line.size() && line[at] == ' ') ++at;
  if (at == line.size() || !std::isdigit(static_cast<unsigned char>(line[at]))) return std::nullopt;
  line_origin origin;
  origin.line = 0;
  for (; at < line.size() && std::isdigit(static_cast<unsigned char>(line[at])); ++at)
    origin.line = origin.line * 10 + static_cast<std::uint32_t>(line[at] - '0');
  while (at < line.size() && line[at] == ' ') ++at;
  if (at < line.size() && line[at] == '"')
    for (++at; at < line.size() && line[at] != '"'; ++at) {
      if (line[at] == '\\' && at + 1 < line.size()) ++at;  // cpp escapes '\' and '"' in names
      origin.file += line[at];
    }
  return origin;
}

/// Splits cpp's output into the text to compile and the origin of each of its lines. A marker
/// that skips lines of the same file (cpp's way of dropping a run of blank lines) becomes those
/// blank lines again, so that, up to the first #include, line N of the text is line N of the
/// script and the checker's own "line N" (in "previous: ... : line 6") stays right. cpp drops
/// no more blank lines than its input has (`max_gap`): a longer skip is a #line of the user's,
/// which only renumbers (filling it would let `#line 4000000000` fill gigabytes).
inline preprocessed strip_line_markers(std::string_view output, const std::string& script,
                                       std::uint32_t max_gap) {
  preprocessed result;
  line_origin next;
  while (!output.empty()) {
    const auto eol = output.find('\n');
    const auto line = output.substr(0, eol);
    output.remove_prefix(eol == std::string_view::npos ? output.size() : eol + 1);
    if (auto marker = line_marker(line)) {
      if (marker->file == script) marker->file.clear();
      const bool fill = marker->file == next.file && marker->line > next.line &&
                        marker->line - next.line <= max_gap;
      for (; fill && next.line < marker->line; ++next.line) {
        result.text.push_back('\n');
        result.origins.push_back(next);
      }
      next = std::move(*marker);
      continue;
    }
    result.text.append(line).push_back('\n');
    result.origins.push_back(next);
    ++next.line;
  }
  return result;
}

}  // namespace detail

/// Where cpp reads the script, and so the name its messages and line markers give it.
inline constexpr std::string_view cpp_input = "/dev/stdin";

/// cpp's arguments as dtrace(1) gives them: its predefined names, the user's -D/-U/-I/-H in order,
/// the D version, then the -X mode. The script comes on standard input.
inline std::vector<std::string> cpp_arguments(const std::string& cpp,
                                              const std::vector<std::string>& user,
                                              const std::string& stdc) {
  std::vector<std::string> args{
      cpp,          "-D__linux",     "-D__unix", "-D__SVR4", "-D__SUNW_D=1",
      "-U__GNUC__", "-D__SUNW_D_64", "-D__Linux"};
#if defined(__x86_64__)
  args.push_back("-D__amd64");
#endif
  args.insert(args.end(), user.begin(), user.end());
  args.push_back("-D__SUNW_D_VERSION=0x02000000");  // D 2.0, as dtpp -V says
  // -Xs is K&R C; every other mode (and none) ISO C, as dtrace-utils runs cpp: so glibc's
  // headers leave out their GNU extensions, such as <endian.h>'s static inline functions.
  args.push_back(stdc == "s" ? "-traditional-cpp" : "-std=c99");
  args.push_back(std::string(cpp_input));
  return args;
}

/// How long cpp may run, and how much it may write.
inline constexpr std::chrono::seconds cpp_time_limit{30};
inline constexpr std::size_t cpp_output_limit = std::size_t{64} << 20;

/// Runs cpp (found on PATH unless a path is given) over a script. cpp's own messages go to our
/// standard error, as with dtrace(1), and name the script as dtrace-utils' do: /dev/stdin, which
/// cpp reads it from. The script's `#!` line, which cpp would reject, is blanked before.
inline preprocess_result preprocess(const std::vector<std::string>& arguments, std::string script) {
  const int input = ::memfd_create("dtpp-script", MFD_CLOEXEC);
  int output[2] = {-1, -1};
  if (input < 0 || ::pipe2(output, O_CLOEXEC) != 0) {
    if (input >= 0) ::close(input);
    return {std::nullopt, "Failed to fork preprocessor"};
  }
  for (std::size_t done = 0; done < script.size();) {
    const auto n = ::write(input, script.data() + done, script.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::lseek(input, 0, SEEK_SET);

  // cpp is told its name without the directory, as dtrace-utils runs it: its messages then read
  // `cpp: ...` (or `cat: ...` under -x cpppath=/bin/cat), whatever the path.
  std::string shown_name = arguments[0].substr(arguments[0].rfind('/') + 1);
  std::vector<char*> argv{shown_name.data()};
  for (std::size_t i = 1; i < arguments.size(); ++i) argv.push_back(const_cast<char*>(arguments[i].c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO);
  ::posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, arguments[0].c_str(), &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(input);
  ::close(output[1]);
  if (spawned != 0) {
    ::close(output[0]);
    return {std::nullopt,
            spawned == ENOENT ? "Preprocessor not found" : "Failed to exec preprocessor"};
  }

  // cpp is bounded in time and in output (a macro can expand without end): past either it is
  // killed.
  std::string text;
  char buffer[65536];
  const auto deadline = std::chrono::steady_clock::now() + cpp_time_limit;
  std::string exceeded;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd ready{output[0], POLLIN, 0};
    const int polled = left.count() > 0 ? ::poll(&ready, 1, static_cast<int>(left.count())) : 0;
    if (polled < 0 && errno == EINTR) continue;
    if (polled == 0) {
      exceeded = "Preprocessor took longer than " +
                 std::to_string(cpp_time_limit.count()) +
                 " seconds";
      break;
    }
    const auto n = ::read(output[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (text.size() + static_cast<std::size_t>(n) > cpp_output_limit) {
      exceeded = "Preprocessor output is larger than " + std::to_string(cpp_output_limit >> 20) + " MiB";
      break;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(output[0]);
  if (!exceeded.empty()) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!exceeded.empty()) return {std::nullopt, exceeded};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return {std::nullopt, "Preprocessor failed to process input program"};
  const auto input_lines = static_cast<std::uint32_t>(std::min<std::size_t>(
      std::count(script.begin(), script.end(), '\n') + 1, UINT32_MAX));
  return {detail::strip_line_markers(text, std::string(cpp_input), input_lines), {}};
}

/// d::render() for a program that went through cpp: the line number is the one the line had
/// before cpp, in the script or, named as dtrace(1) names it, in an included file. The line shown
/// is the preprocessed one, whose columns the diagnostic counts.
inline std::string render(const d::diagnostic& diagnostic, const d::source_file& compiled,
                          const std::vector<line_origin>& origins,
                          const d::render_options& options) {
  const auto at = compiled.at(diagnostic.where.begin);
  line_origin origin{{}, at.line};
  if (at.line <= origins.size()) {
    origin = origins[at.line - 1];
  } else if (!origins.empty()) {  // past the last line: the end of the program
    origin = origins.back();
    origin.line += at.line - static_cast<std::uint32_t>(origins.size());
  }
  // render() needs only the line the diagnostic is on, so that line alone is rendered, numbered
  // as it was.
  const auto line = compiled.line_text(at.line);
  const d::source_file placed(compiled.name(), std::string(line) + "\n");
  auto shown = options;
  shown.first_line = origin.line;
  shown.file = origin.file;  // dtrace(1): `failed to compile script x.d: [TAG] "inc.h", line 3: message`
  auto moved = diagnostic;
  moved.where.begin = at.column - 1;
  const auto last =
      compiled.at(diagnostic.where.end > diagnostic.where.begin ? diagnostic.where.end - 1
                                                                : diagnostic.where.begin);
  moved.where.end = last.line == at.line
                        ? moved.where.begin + (diagnostic.where.end - diagnostic.where.begin)
                        : static_cast<std::uint32_t>(placed.text().size() + 1);  // no ~ then
  return d::render(moved, placed, shown);
}

}  // namespace dtpp::command
