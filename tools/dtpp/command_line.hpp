// dtrace(1)'s command line read the way dtrace(1) reads it: the same letters, the same getopt
// messages, options and operands in any order, and the same exit status for bad usage.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtpp/d/check.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/options/values.hpp"

namespace dtpp::command {

/// The command's exit status, as dtrace(1)'s: E_SUCCESS, E_ERROR, E_USAGE.
inline constexpr int exit_success = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_usage = 2;

/// The version of D that `dtpp -V` reports, in dtrace(1)'s "<vendor> D <version>" form.
inline constexpr std::string_view d_version = "dtpp D 2.0";

/// One program to compile: `-s FILE` or `-n DESCRIPTION`.
struct program_spec {
  bool script = true;  ///< -s: text is a path; -n: text is the program
  std::string text;
};

/// Everything the command line asked for, once read.
struct settings {
  std::string name;                        ///< basename of argv[0]: the prefix of every message
  std::string argv0;                       ///< argv[0] as given: $0 of -n programs, as in dtrace(1)
  std::vector<program_spec> programs;      ///< -s and -n, in command-line order
  std::vector<std::string> operands;       ///< $1, $2 ...
  bool compile_only = false;               ///< -e
  bool show_programs = false;              ///< -S
  bool list = false;                       ///< -l
  bool preprocess = false;                 ///< -C, -x cpp
  bool errtags = false;                    ///< -x errtags
  bool errsource = true;                   ///< -x errsource: off by default when run as dtrace
  std::string cpp = "cpp";                 ///< -x cpppath
  std::vector<std::string> cpp_arguments;  ///< -D, -U, -I, -H, in order
  std::string stdc;                        ///< -X, -x stdc: a, c, s or t
  std::string output;                      ///< -o: the file the run's output is appended to
  d::compile_options compile;              ///< strsize, stack frames, defaultargs, argref, empty, $target
  pid_t command = 0;                       ///< -c: the child running the command, held at exec
  int command_gate = -1;                   ///< -c: writing here lets the child exec its command
  pid_t grabbed = 0;                       ///< -p: the process whose exit ends the run
  std::vector<ir::option> options;         ///< every option set, in order, for the engines
};

namespace detail {

inline constexpr const char* optstring = "+3:6:aAb:Bc:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z";

inline void complain(const settings& s, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", s.name.c_str(), message.c_str());
}

/// -c: forks a child that waits on a pipe until the program is running, then execs the command
/// (split on blanks, as dtrace(1) splits it), so that $target is known when the program compiles.
inline bool start_command(settings& s, const std::string& command) {
  std::vector<std::string> words;
  for (std::size_t at = 0; at < command.size();) {
    const auto start = command.find_first_not_of(" \t", at);
    if (start == std::string::npos) break;
    const auto end = std::min(command.find_first_of(" \t", start), command.size());
    words.push_back(command.substr(start, end - start));
    at = end;
  }
  if (words.empty()) {
    complain(s, "failed to create process: empty command");
    return false;
  }
  int gate[2];
  if (::pipe2(gate, O_CLOEXEC) != 0) {
    complain(s, std::string("failed to create process: ") + std::strerror(errno));
    return false;
  }
  const pid_t child = ::fork();
  if (child < 0) {
    complain(s, std::string("failed to create process: ") + std::strerror(errno));
    return false;
  }
  if (child == 0) {
    ::close(gate[1]);
    char go = 0;
    if (::read(gate[0], &go, 1) != 1) ::_exit(127);  // the program never started
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "%s: failed to execute %s: %s\n", s.name.c_str(), argv[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(gate[0]);
  s.command = child;
  s.command_gate = gate[1];
  return true;
}


inline int usage(const settings& s) {
  std::fprintf(stderr,
               "Usage: %s [-64] [-CeFhHlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]]\n"
               "\t[-I path] [-L path] [-o output] [-p pid] [-s script] [-U name]\n"
               "\t[-x opt[=val]] [-X a|c|s|t]\n\n"
               "\t[-n [[[ provider: ] module: ] func: ] name [[ predicate ] action ]]\n"
               "\t[ args ... ]\n\n"
               "\tpredicate -> '/' D-expression '/'\n"
               "\t   action -> '{' D-statements '}'\n\n"
               "\t-64 generate 64-bit D programs (the only kind dtpp generates)\n"
               "\t-b  set trace buffer size\n"
               "\t-c  run specified command and exit upon its completion\n"
               "\t-C  run cpp(1) preprocessor on script files\n"
               "\t-D  define symbol when invoking preprocessor\n"
               "\t-e  exit after compiling request but prior to enabling probes\n"
               "\t-F  coalesce trace output by function\n"
               "\t-h  print this help\n"
               "\t-H  print included files when invoking preprocessor\n"
               "\t-I  add include directory to preprocessor search path\n"
               "\t-l  list probes matching specified criteria\n"
               "\t-L  add library directory to library search path\n"
               "\t-n  enable or list probes matching the specified probe name\n"
               "\t-o  set output file\n"
               "\t-p  grab specified process-ID and cache its symbol tables\n"
               "\t-q  set quiet mode (only output explicitly traced data)\n"
               "\t-s  enable or list probes according to the specified D script\n"
               "\t-S  print the checked D program\n"
               "\t-U  undefine symbol when invoking preprocessor\n"
               "\t-v  set verbose mode (with -V: print dtpp's own version too)\n"
               "\t-V  report D language version\n"
               "\t-w  permit destructive actions\n"
               "\t-x  enable or modify compiler and tracing options\n"
               "\t-X  specify ISO C conformance settings for preprocessor\n"
               "\t-Z  permit probe descriptions that match zero probes\n",
               s.name.c_str());
  return exit_usage;
}

/// Sets one of DTrace's options, as dtrace_setopt() would; the error is libdtrace's message.
inline std::optional<std::string_view> set_option(settings& s, std::string_view name,
                                                  const char* value) {
  if (auto error = options::option_error(name, value)) return error;
  const std::string text = value ? value : "";
  if (name == "errtags") s.errtags = true;
  if (name == "errsource") s.errsource = text == "on";
  if (name == "defaultargs") s.compile.defaultargs = true;
  if (name == "argref") s.compile.argref = true;
  if (name == "empty") s.compile.empty_ok = true;
  if (name == "strsize") s.compile.strsize = static_cast<std::uint32_t>(*options::parse_size(text));
  d::set_frames_option(s.compile, name, text);
  if (name == "cpp") s.preprocess = true;
  if (name == "cpppath") s.cpp = text;
  if (name == "cpphdrs") s.cpp_arguments.push_back("-H");
  if (name == "define") s.cpp_arguments.push_back("-D" + text);
  if (name == "undef") s.cpp_arguments.push_back("-U" + text);
  if (name == "incdir") s.cpp_arguments.push_back("-I" + text);
  if (name == "stdc") s.stdc = text;
  s.options.push_back({std::string(name), text});
  return std::nullopt;
}

// The letters that stand for an option, and how dtrace(1) names them when setting one fails.
struct letter_option {
  char letter;
  const char* option;
  bool shows_argument;  ///< "failed to set -D FOO", but "failed to set -q"
};
inline constexpr letter_option letter_options[] = {
    {'b', "bufsize", true},  {'D', "define", true}, {'F', "flowindent", false},
    {'H', "cpphdrs", false}, {'I', "incdir", true}, {'L', "libdir", true},
    {'q', "quiet", false},   {'U', "undef", true},  {'w', "destructive", false},
    {'X', "stdc", true},     {'Z', "zdefs", false},
};

}  // namespace detail

/// Reads argv into `s` in dtrace(1)'s passes: getopt (options and operands may mix), the modes
/// (-V, -l, -h), the options, then the processes (-p, -c). Prints what is wrong; returns the
/// exit status when the command must stop here.
inline std::optional<int> read_command_line(int argc, char* argv[], settings& s) {
  using detail::complain;
  s.argv0 = argv[0];
  const auto slash = s.argv0.rfind('/');
  s.name = slash == std::string::npos ? s.argv0 : s.argv0.substr(slash + 1);
  // Invoked as dtrace, standard error is dtrace(1)'s exactly: no source excerpt under errors.
  s.errsource = s.name != "dtrace";
  if (argc == 1) return detail::usage(s);
  argv[0] = s.name.data();  // getopt's messages name the command the way ours do

  std::vector<std::pair<char, std::string>> given;
  for (optind = 1; optind < argc; ++optind) {
    int c;
    while ((c = ::getopt(argc, argv, detail::optstring)) != -1) {
      if (c == '?') return detail::usage(s);  // getopt said why
      const std::string argument = optarg ? optarg : "";
      if ((c == '3' && argument != "2") || (c == '6' && argument != "4")) {
        complain(s, std::string("illegal option -- ") + static_cast<char>(c) + argument);
        return detail::usage(s);
      }
      given.emplace_back(static_cast<char>(c), argument);
    }
    if (optind < argc) s.operands.push_back(argv[optind]);
  }

  int modes = 0;
  bool version = false, help = false;
  int verbose = 0;
  for (const auto& [c, argument] : given) {
    modes += c == 'G' || c == 'h' || c == 'l' || c == 'V';
    version |= c == 'V';
    help |= c == 'h';
    s.list |= c == 'l';
    verbose += c == 'v';
  }
  if (modes > 1) {
    complain(s, "only one of the [-GhlV] options can be specified at a time");
    return exit_usage;
  }
  if (help) return detail::usage(s);
  if (version) {
    std::printf("%s: %s\n", s.name.c_str(), d_version.data());
    if (verbose) std::printf("This is dtpp %s\n", DTPP_VERSION);
    return exit_success;
  }

  for (const auto& [c, argument] : given) {
    switch (c) {
      case 'e':
        s.compile_only = true;
        break;
      case 'S':
        s.show_programs = true;
        break;
      case 'C':
        s.preprocess = true;
        break;
      case 'o':
        s.output = argument;
        break;
      case 's':
        s.programs.push_back({true, argument});
        break;
      case 'n':
        s.programs.push_back({false, argument});
        break;
      case 'x': {
        const auto eq = argument.find('=');
        const auto name = argument.substr(0, eq);
        const auto value = eq == std::string::npos ? std::string() : argument.substr(eq + 1);
        if (auto error =
                detail::set_option(s, name, eq == std::string::npos ? nullptr : value.c_str())) {
          complain(s, "failed to set -x " + name + ": " + std::string(*error));
          return exit_failure;
        }
        break;
      }
      case '3':
        complain(s, "-32: dtpp generates 64-bit D programs only");
        return exit_failure;
      case 'a':
      case 'A':
        complain(s, std::string("-") + c + ": anonymous tracing is not supported");
        return exit_failure;
      case 'G':
        complain(s, "-G: linking D programs into ELF objects is not supported");
        return exit_failure;
      case 'f':
      case 'm':
      case 'P':
      case 'i':
        complain(s, std::string("-") + c +
                        " is not supported yet: give the whole probe description with -n");
        return exit_failure;
      default:
        for (const auto& o : detail::letter_options) {
          if (o.letter != c) continue;
          if (auto error =
                  detail::set_option(s, o.option, o.shows_argument ? argument.c_str() : nullptr)) {
            std::string what = std::string("failed to set -") + c;
            if (o.shows_argument) what += " " + argument;
            complain(s, what + ": " + std::string(*error));
            return exit_failure;
          }
        }
        break;  // -64, -B, -l, -v: nothing more to do
    }
  }

  for (const auto& [c, argument] : given) {
    if (c == 'c') {
      if (s.command != 0) {
        complain(s, "only one -c command is supported");
        return exit_failure;
      }
      if (!detail::start_command(s, argument)) return exit_failure;
      s.compile.target = s.command;
      continue;
    }
    if (c != 'p') continue;
    char* end = nullptr;
    errno = 0;
    const long pid = std::strtol(argument.c_str(), &end, 10);
    if (errno != 0 || end == argument.c_str() || *end != '\0') {
      complain(s, "invalid pid: " + argument);
      return exit_failure;
    }
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
      complain(s, "failed to grab pid " + argument + ": " + std::strerror(ESRCH));
      return exit_failure;
    }
    s.compile.target = pid;
    s.grabbed = static_cast<pid_t>(pid);
  }
  return std::nullopt;
}

}  // namespace dtpp::command
