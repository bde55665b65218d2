// DTrace's option table (-x name[=value], #pragma D option, setopt()): every name libdtrace knows,
// what its value must look like, and for run-time options when they may change and their default.
// The one list of options: the checker, the command and the consumer all read it.
#pragma once

#include <cstdint>
#include <string_view>

namespace dtpp::options {

/// What an option's value must look like (the dt_opt_* handler libdtrace gives the option).
enum class value_kind : std::uint8_t {
  none,    ///< a flag: `-x errtags`, never `-x errtags=1`
  any,     ///< a value or none, unchecked
  text,    ///< a value is required, unchecked
  toggle,  ///< none (on), yes/no, on/off, ... or a non-negative integer
  size,    ///< none, or a non-negative integer with an optional k, m, g or t suffix
  rate,    ///< none, or a non-negative integer with an optional ns ... day or hz suffix
  choice,  ///< one of `choices`
};

/// When an option takes effect. Compile-time options steer the compiler and the command; run-time
/// ones are the values dtrace_getopt() reads, fixed once tracing starts unless dynamic.
enum class when : std::uint8_t { compile, run, dynamic };

/// libdtrace's DTRACEOPT_UNSET: the value of a run-time option nobody set.
inline constexpr std::int64_t unset = -2;

struct option_spec {
  std::string_view name;
  value_kind kind = value_kind::any;
  std::string_view choices = {};  ///< for choice: the words, each followed by '|'
  when effect = when::compile;
  std::int64_t initial = unset;  ///< a run-time option's default (Linux DTrace's)
  /// Whether `#pragma D option` and setopt() may set it: the preprocessor's, the linker's and
  /// the type archives' paths steer what happens before a program is read, so only the
  /// command line sets them (libdtrace's EDT_BADOPTCTX).
  bool in_program = true;
};

/// Oracle DTrace 2.0's options (libdtrace/dt_options.c), and the illumos aggregation-output
/// options that dtpp's printing knows (agghist, aggpack, aggzoom) with encoding and temporal,
/// which the D checker accepts in pragmas too. Run-time defaults are Linux DTrace's.
inline constexpr option_spec option_table[] = {
    {"aggpercpu", value_kind::none},
    {"agghist", value_kind::toggle, {}, when::dynamic},
    {"aggpack", value_kind::toggle, {}, when::dynamic},
    {"aggrate", value_kind::rate, {}, when::dynamic, 0},
    {"aggsize", value_kind::size, {}, when::run, std::int64_t{4} << 20},
    {"aggsortkey", value_kind::toggle, {}, when::dynamic},
    {"aggsortkeypos", value_kind::toggle, {}, when::dynamic},
    {"aggsortpos", value_kind::toggle, {}, when::dynamic},
    {"aggsortrev", value_kind::toggle, {}, when::dynamic},
    {"aggzoom", value_kind::toggle, {}, when::dynamic},
    {"amin", value_kind::text},
    {"argref", value_kind::none},
    {"bpflog", value_kind::toggle, {}, when::run},
    {"bpflogsize", value_kind::size, {}, when::run},
    {"bufpolicy", value_kind::choice, "ring|fill|switch|", when::run, 2},
    {"bufresize", value_kind::choice, "auto|manual|", when::run, 0},
    {"bufsize", value_kind::size, {}, when::run, std::int64_t{4} << 20},
    {"cleanrate", value_kind::rate, {}, when::run},
    {"core", value_kind::none},
    {"cpp", value_kind::none},
    {"cppargs", value_kind::text, {}, when::compile, unset, false},
    {"cpphdrs", value_kind::none, {}, when::compile, unset, false},
    {"cpppath", value_kind::text, {}, when::compile, unset, false},
    {"cpu", value_kind::toggle, {}, when::run},
    {"ctfpath", value_kind::text, {}, when::compile, unset, false},
    {"ctypes", value_kind::text},
    {"debug", value_kind::none},
    {"debugassert", value_kind::text},
    {"defaultargs", value_kind::none},
    {"define", value_kind::text, {}, when::compile, unset, false},
    {"destructive", value_kind::toggle, {}, when::run},
    {"disasm", value_kind::text},
    {"dofstashpath", value_kind::text},
    {"droptags", value_kind::any},
    {"dtypes", value_kind::text},
    {"dynvarsize", value_kind::size, {}, when::run, std::int64_t{1} << 20},
    {"empty", value_kind::none},
    {"encoding", value_kind::text},
    {"engine", value_kind::choice, "auto|kernel|inproc|"},  // dtpp's own: who runs the program
    {"errsource", value_kind::choice, "on|off|"},  // dtpp's own: source excerpts under errors
    {"errtags", value_kind::none},
    {"evaltime", value_kind::choice, "exec|preinit|postinit|main|"},
    {"flamegraph", value_kind::text},  // dtpp's own: an SVG flame graph of the stack aggregations
    {"flowindent", value_kind::toggle, {}, when::dynamic},
    {"grabanon", value_kind::toggle, {}, when::run},
    {"incdir", value_kind::text, {}, when::compile, unset, false},
    {"iregs", value_kind::text},
    {"jstackframes", value_kind::toggle, {}, when::run},
    {"jstackstrsize", value_kind::size, {}, when::run},
    {"kdefs", value_kind::none},
    {"knodefs", value_kind::none},
    {"late", value_kind::choice, "dynamic|static|"},
    {"lazyload", value_kind::any},
    {"ldpath", value_kind::text, {}, when::compile, unset, false},
    {"libdir", value_kind::text},
    {"linkmode", value_kind::choice, "kernel|dynamic|static|"},
    {"linknommap", value_kind::any},
    {"linktype", value_kind::text},
    {"lockmem", value_kind::text, {}, when::run, unset, false},
    {"mangled", value_kind::none},  // Apple DTrace's: C++ names in output stay mangled
    {"maxframes", value_kind::toggle, {}, when::run},
    {"metrics", value_kind::text},         // dtpp's own: serve OpenMetrics at ADDRESS:PORT
    {"metrics_labels", value_kind::text},  // dtpp's own: @agg:label,...;... names keys
    {"modpath", value_kind::text, {}, when::compile, unset, false},
    {"nolibs", value_kind::none},
    {"noresolve", value_kind::toggle, {}, when::run},
    {"nspec", value_kind::toggle, {}, when::run, 1},
    {"oformat", value_kind::choice, "text|json|folded|"},  // dtpp's own: text, NDJSON, folded stacks
    {"pcapsize", value_kind::size, {}, when::run},
    {"pgmax", value_kind::text},
    {"preallocate", value_kind::text},
    {"printsize", value_kind::size, {}, when::dynamic},
    {"procfspath", value_kind::text, {}, when::compile, unset, false},
    {"pspec", value_kind::none},
    {"quiet", value_kind::toggle, {}, when::dynamic},
    {"quietresize", value_kind::toggle, {}, when::dynamic},
    {"rawbytes", value_kind::toggle, {}, when::dynamic},
    {"scratchsize", value_kind::size, {}, when::run},
    {"specsize", value_kind::size, {}, when::run, std::int64_t{4} << 20},
    {"stackframes", value_kind::toggle, {}, when::run},
    {"stackindent", value_kind::toggle, {}, when::dynamic, 14},
    {"statusrate", value_kind::rate, {}, when::run, 1'000'000'000},
    {"stdc", value_kind::choice, "a|c|s|t|", when::compile, unset, false},
    {"strip", value_kind::none},
    {"strsize", value_kind::size, {}, when::run, 256},
    {"switchrate", value_kind::rate, {}, when::dynamic, 0},
    {"syslibdir", value_kind::text},
    {"sysslice", value_kind::text},
    {"temporal", value_kind::toggle, {}, when::dynamic},
    {"tree", value_kind::text},
    {"tregs", value_kind::text},
    {"udefs", value_kind::none},
    {"undef", value_kind::text, {}, when::compile, unset, false},
    {"unodefs", value_kind::none},
    {"useruid", value_kind::text},
    {"ustackframes", value_kind::toggle, {}, when::run},
    {"verbose", value_kind::none},
    {"version", value_kind::text},
    {"zdefs", value_kind::none},
};

inline const option_spec* find_option(std::string_view name) {
  for (const auto& o : option_table)
    if (o.name == name) return &o;
  return nullptr;
}

}  // namespace dtpp::options
