// dtrace(1)'s command line read the way dtrace(1) reads it: the same letters, the same getopt
// messages, options and operands in any order, and the same exit status for bad usage.
#pragma once

#include <fcntl.h>
#include <elf.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
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
  bool script = true;  ///< -s: text is a path; -n, -P, -m, -f: text is the program
  std::string text;
  std::string given{};  ///< -P, -m, -f, or a probe id's: the argument as given (text has its descriptions whole)
  bool by_id = false;   ///< -n, -i: the descriptions may be probe ids
  /// What messages quote: the path, or the program as given.
  const std::string& shown() const { return given.empty() ? text : given; }
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
  bool verbose = false;                    ///< -v: with -l, each probe's attributes and argument types
  bool preprocess = false;                 ///< -C, -x cpp
  bool errtags = false;                    ///< -x errtags
  bool errsource = true;                   ///< -x errsource: off by default when run as dtrace
  std::string cpp = "cpp";                 ///< -x cpppath
  std::vector<std::string> cpp_arguments;  ///< -D, -U, -I, -H, in order
  std::string stdc;                        ///< -X, -x stdc: a, c, s or t
  std::string output;                      ///< -o: the file the run's output is appended to
  d::compile_options compile;              ///< strsize, stack frames, defaultargs, argref, empty, $target
  pid_t command = 0;                       ///< -c: the child running the command (traced by dtpp)
  bool command_held = false;               ///< -c: the child is stopped before its first instruction
  bool command_loading = false;            ///< -c: the child is stopped at a loader event (see command_ended)
  pid_t grabbed = 0;                       ///< -p: the process whose exit ends the run
  std::vector<ir::option> options;         ///< every option set, in order, for the engines
};

namespace detail {

inline constexpr const char* optstring = "+3:6:aAb:Bc:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z";

inline void complain(const settings& s, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", s.name.c_str(), message.c_str());
}

/// Runs a child stopped at exec to its program's entry point (AT_ENTRY), through a breakpoint put
/// there and taken away: the dynamic loader has then mapped the libraries the program needs, so
/// that pid probes find them, and not one instruction of the program has run. False when the
/// child ended first.
inline bool run_to_entry(pid_t child) {
  std::uint64_t entry = 0;
  if (std::FILE* auxv = std::fopen(("/proc/" + std::to_string(child) + "/auxv").c_str(), "re")) {
    std::uint64_t pair[2];
    while (std::fread(pair, sizeof pair, 1, auxv) == 1 && pair[0] != AT_NULL)
      if (pair[0] == AT_ENTRY) entry = pair[1];
    std::fclose(auxv);
  }
  if (entry == 0) return true;  // nothing known: the child stays at exec
  errno = 0;
  const long original = ::ptrace(PTRACE_PEEKTEXT, child, reinterpret_cast<void*>(entry), nullptr);
  if (errno != 0) return true;
  const long trap = static_cast<long>((static_cast<unsigned long>(original) & ~0xfful) | 0xcc);  // int3
  if (::ptrace(PTRACE_POKETEXT, child, reinterpret_cast<void*>(entry), reinterpret_cast<void*>(trap)) != 0) return true;
  user_regs_struct regs{};
  long signal = 0;
  while (true) {
    int status = 0;
    if (::ptrace(PTRACE_CONT, child, nullptr, reinterpret_cast<void*>(signal)) != 0 ||
        ::waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
      return false;
    signal = (status >> 16) != 0 ? 0 : WSTOPSIG(status);
    if (signal == SIGTRAP && ::ptrace(PTRACE_GETREGS, child, nullptr, &regs) == 0 && regs.rip == entry + 1) break;
  }
  ::ptrace(PTRACE_POKETEXT, child, reinterpret_cast<void*>(entry), reinterpret_cast<void*>(original));
  regs.rip = entry;
  ::ptrace(PTRACE_SETREGS, child, nullptr, &regs);
  return true;
}

/// -c: starts the command (split on blanks, as dtrace(1) splits it) stopped before its first
/// instruction, as dtrace(1) does: the child asks to be traced and execs, which stops it with
/// SIGTRAP. $target is then known when the program compiles, and the probes are placed in the
/// program it runs before it runs. Being its tracer lets dtpp read its maps when it exits
/// (PTRACE_O_TRACEEXIT), so that its frames are named afterwards, and kills it if dtpp dies
/// (PTRACE_O_EXITKILL).
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
  // The child writes exec's errno here when exec fails; a successful exec closes it.
  int failure[2];
  if (::pipe2(failure, O_CLOEXEC) != 0) {
    complain(s, std::string("failed to create process: ") + std::strerror(errno));
    return false;
  }
  const pid_t child = ::fork();
  if (child < 0) {
    complain(s, std::string("failed to create process: ") + std::strerror(errno));
    return false;
  }
  if (child == 0) {
    ::close(failure[0]);
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    int e = ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0 ? 0 : errno;
    if (e == 0) {
      ::execvp(argv[0], argv.data());
      e = errno;
    }
    (void)!::write(failure[1], &e, sizeof e);
    ::_exit(127);
  }
  ::close(failure[1]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  int e = 0;
  const bool failed = ::read(failure[0], &e, sizeof e) == sizeof e;
  ::close(failure[0]);
  if (failed || !WIFSTOPPED(status)) {
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    complain(s, "failed to execute " + words.front() + ": " + std::strerror(failed ? e : ECHILD));
    return false;
  }
  ::ptrace(PTRACE_SETOPTIONS, child, nullptr,
           reinterpret_cast<void*>(PTRACE_O_EXITKILL | PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC));
  if (!run_to_entry(child)) {
    ::kill(child, SIGKILL);
    while (::waitpid(child, &status, 0) == child && WIFSTOPPED(status)) ::ptrace(PTRACE_CONT, child, nullptr, nullptr);
    complain(s, "failed to create process: " + words.front() + " ended before its first instruction");
    return false;
  }
  s.command = child;
  s.command_held = true;
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
  if (name == "zdefs") s.compile.zdefs = true;
  if (name == "pspec") s.compile.pspec = true;
  if (name == "strsize") s.compile.strsize = static_cast<std::uint32_t>(*options::parse_size(text));
  d::set_frames_option(s.compile, name, text);
  d::set_bound_option(s.compile, name, text);
  if (name == "cpp") s.preprocess = true;
  if (name == "cpppath") s.cpp = text;
  if (name == "cppargs") {
    // Words apart, as dtrace-utils splits them; each is one of cpp's arguments.
    for (std::size_t at = text.find_first_not_of(" \t\n\r\f\v"); at != std::string::npos;) {
      const auto end = text.find_first_of(" \t\n\r\f\v", at);
      s.cpp_arguments.push_back(text.substr(at, end - at));
      at = text.find_first_not_of(" \t\n\r\f\v", end);
    }
  }
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

// Where a program's leading probe description ends: at its predicate, its body or the next one.
inline constexpr const char* description_end = " \t\n/{,";

// -P, -m and -f name a probe by its provider, module or function: the description's last field
// is that one (field 1, 2 or 3 of provider:module:function:name), the ones before it go left.
// Returns the program with its leading description made whole for -n (`-f read` is `::read:`),
// or nothing when the description has more fields than its option allows.
inline std::optional<std::string> whole_description(const std::string& program, std::size_t last_field) {
  const auto end = std::min(program.find_first_of(description_end), program.size());
  auto fields = 1 + static_cast<std::size_t>(std::count(program.begin(), program.begin() + static_cast<std::ptrdiff_t>(end), ':'));
  // As dtrace-utils reads fields from the right and stops at the text's start, an empty field
  // before a leading ':' is never read: -f ::read: is :read::.
  const std::size_t skipped = fields == last_field + 1 && program[0] == ':' ? 1 : 0;
  fields -= skipped;
  if (fields > last_field) return std::nullopt;
  return std::string(last_field - fields, ':') + program.substr(skipped, end - skipped) + std::string(4 - last_field, ':') +
         program.substr(end);
}

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
    // After "--" every argument is an operand, "-e" too (getopt is not asked again past it).
    if (optind < argc && optind > 1 && std::string_view(argv[optind - 1]) == "--") {
      s.operands.insert(s.operands.end(), argv + optind, argv + argc);
      break;
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
  s.verbose = verbose > 0;
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

  // DTRACE_OPT_NAME=value in the environment sets option `name` before the command line's, as
  // in dtrace(1), which passes over one it cannot set.
  for (const auto& o : options::option_table) {
    std::string variable = "DTRACE_OPT_";
    for (const char ch : o.name) variable += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (const char* value = std::getenv(variable.c_str())) (void)detail::set_option(s, o.name, value);
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
      case 'i':  // the same in dtrace(1); ids are looked up once the command line is read
        s.programs.push_back({false, argument, {}, true});
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
      case 'P':
      case 'm':
      case 'f': {
        // dtrace(1)'s lexer reads a leading number as a probe id, which only -n and -i take.
        if (!argument.empty() && std::isdigit(static_cast<unsigned char>(argument[0]))) {
          complain(s, "invalid probe specifier " + argument + ": probe identifier " +
                          argument.substr(0, argument.find_first_not_of("0123456789")) + " not permitted when specifying " +
                          (c == 'P' ? "providers" : c == 'm' ? "modules" : "functions"));
          return exit_failure;
        }
        auto program = detail::whole_description(argument, c == 'P' ? 1 : c == 'm' ? 2 : 3);
        if (!program) {
          complain(s, "invalid probe specifier " + argument + ": invalid probe description \"" +
                          argument.substr(0, argument.find_first_of(detail::description_end)) +
                          "\": Overspecified probe description");
          return exit_failure;
        }
        s.programs.push_back({false, std::move(*program), argument});
        break;
      }
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
