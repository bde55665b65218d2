// Checking D: the syntax tree to a typed ir::program, with DTrace's diagnostics.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dtpp/d/ast.hpp"
#include "dtpp/d/diagnostic.hpp"
#include "dtpp/d/source.hpp"
#include "dtpp/ir/program.hpp"

namespace dtpp::d {

struct compile_options {
  /// $0 (the script's path, or the program name), then $1, $2 ... from the command line.
  std::vector<std::string> arguments{"dtrace"};
  std::int64_t target = 0;      ///< $target: the -c or -p process, 0 when none
  std::uint32_t strsize = 256;  ///< bytes of a string
  bool defaultargs = false;     ///< missing $N are 0, missing $$N are ""
  bool argref = false;          ///< do not report an unreferenced last argument
  bool empty_ok = false;        ///< -xempty: a program with no clause is fine
};

struct compile_result {
  ir::program program;
  std::vector<diagnostic> errors;  ///< empty when the program checked
};

/// Checks a parsed program. Defined in dtpp/src.hpp (compiled into dtpp::dtpp).
compile_result check(const ast::program& program, const source_file& source,
                     const compile_options& options = {});

/// parse() then check(): every syntax error, or every type error of a program that parsed.
compile_result compile(const source_file& source, const compile_options& options = {});

/// The checked program in a readable form (what `dtpp -S` prints).
std::string dump(const ir::program& program);

}  // namespace dtpp::d
