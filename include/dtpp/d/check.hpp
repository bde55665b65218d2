// Checking D: the syntax tree to a typed ir::program, with DTrace's diagnostics.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/d/ast.hpp"
#include "dtpp/d/diagnostic.hpp"
#include "dtpp/options/values.hpp"
#include "dtpp/d/source.hpp"
#include "dtpp/ir/program.hpp"
#include "dtpp/ir/type_table.hpp"

namespace dtpp::d {

struct compile_options {
  /// $0 (the script's path, or the program name), then $1, $2 ... from the command line.
  std::vector<std::string> arguments{"dtrace"};
  std::int64_t target = 0;      ///< $target: the -c or -p process, 0 when none
  std::uint32_t strsize = 256;  ///< bytes of a string
  std::uint32_t scratchsize = 256;  ///< bytes of scratch memory for alloca() and copyin(), per clause
  std::uint32_t stackframes = 20;   ///< frames of stack() without an argument
  std::uint32_t ustackframes = 20;  ///< frames of ustack() without an argument
  std::uint32_t jstackframes = 50;  ///< frames of jstack() without an argument (illumos' default)
  std::uint32_t maxframes = 127;    ///< the most frames a stack keeps (Linux's perf_event_max_stack)
  std::uint32_t tuple_registers = 8;  ///< -x tregs: a tuple (keys) may have one more (dtrace-utils' DIF_DTR_NREGS)
  std::uint32_t pcapsize = 1514;      ///< the most bytes of a packet pcap() captures (an Ethernet frame)
  bool defaultargs = false;     ///< missing $N are 0, missing $$N are ""
  bool argref = false;          ///< do not report an unreferenced last argument
  bool empty_ok = false;        ///< -xempty: a program with no clause is fine
  bool script_file = false;     ///< the source is a script file's (parse())
  bool pspec = false;           ///< -x pspec: a file's text may end with a bare description (parse())
  bool zdefs = false;           ///< -Z: a probe description may match nothing (none is refused)
  /// Where struct, union and typedef names and curthread's type come from (the kernel engine's
  /// BTF, kernel::kernel_types()); null: only D's own types. Not owned; asked only when a
  /// program names such a type.
  ir::type_table* types = nullptr;
  /// The program's text before this offset is D's library (d::library_files(), joined before
  /// the program): its translators and inlines are checked where a program uses them, so that
  /// one that uses none costs nothing (no BTF read) and runs on any engine.
  std::uint32_t library_end = 0;

  /// The scratch bytes a clause has: scratchsize rounded up to 8, as dtrace-utils rounds it
  /// (alloca(N) and copyin() of a constant N beyond it are D_ALLOCA_SIZE).
  std::uint32_t scratch_bytes() const { return (scratchsize + 7) & ~7u; }
  /// The bytes of a string's place: strsize characters and the NUL after them, as
  /// dtrace-utils holds them (illumos holds strsize - 1 characters).
  std::uint32_t string_bytes() const { return strsize + 1; }
};

/// Takes the stackframes, ustackframes, jstackframes and maxframes options (others are left alone).
inline void set_frames_option(compile_options& options, std::string_view name, std::string_view value) {
  std::uint32_t* field = name == "stackframes"    ? &options.stackframes
                         : name == "ustackframes" ? &options.ustackframes
                         : name == "jstackframes" ? &options.jstackframes
                         : name == "maxframes"    ? &options.maxframes
                                                  : nullptr;
  const auto frames = options::parse_size(value);
  if (field && frames && *frames > 0) *field = static_cast<std::uint32_t>(std::min<std::uint64_t>(*frames, 4096));
}

/// Takes the tregs option (tuple registers: a tuple may have one key more), pcapsize (as dtrace-utils
/// takes it: 1514 for a size that is not from 1 to 65535, rounded up to 8) and scratchsize (at most
/// 1 MiB); others are left alone.
inline void set_bound_option(compile_options& options, std::string_view name, std::string_view value) {
  if (name == "scratchsize")
    options.scratchsize = static_cast<std::uint32_t>(std::min<std::uint64_t>(options::parse_size(value).value_or(0), 1u << 20));
  if (name == "tregs") options.tuple_registers = static_cast<std::uint32_t>(std::max(1, std::atoi(std::string(value).c_str())));
  if (name == "pcapsize") {
    const auto size = options::parse_size(value).value_or(0);
    options.pcapsize = size == 0 || size > 65535 ? 1514 : static_cast<std::uint32_t>((size + 7) & ~7ull);
  }
}

struct compile_result {
  ir::program program;
  std::vector<diagnostic> errors;  ///< empty when the program checked
};

/// Checks a parsed program. Defined in src/d/check.cpp (compiled into dtpp::dtpp).
compile_result check(const ast::program& program, const source_file& source,
                     const compile_options& options = {});

/// parse() then check(): every syntax error, or every type error of a program that parsed.
compile_result compile(const source_file& source, const compile_options& options = {});

/// The checked program in a readable form (what `dtpp -S` prints).
std::string dump(const ir::program& program);

}  // namespace dtpp::d
