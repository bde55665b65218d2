// Parsing D: source text to ast::program, with every syntax error found.
#pragma once

#include <cstdint>
#include <vector>

#include "dtpp/d/ast.hpp"
#include "dtpp/d/diagnostic.hpp"
#include "dtpp/d/source.hpp"

namespace dtpp::d {

struct parse_result {
  ast::program program;
  std::vector<diagnostic> errors;  ///< empty when the program parsed
};

/// Parses a whole script. A clause that fails to parse is reported and skipped up to its
/// closing brace, so that independent errors further on are reported too. Never throws on bad
/// input, however malformed. A script file (`script_file`: -s, not -n) must follow each probe
/// description with a predicate or actions, as in DTrace, except a bare one at its end under
/// `pspec` (-x pspec, or the file's own pragma). Defined in dtpp/src.hpp (compiled into
/// dtpp::dtpp).
parse_result parse(const source_file& source, bool script_file = false, bool pspec = false);

/// The deepest nesting of brackets and conditionals the parser accepts, and the deepest
/// expression tree (long operator chains); deeper input is an error rather than a stack overflow
/// in the parser, the checker or the engines that walk the tree.
inline constexpr int max_nesting = 256;
inline constexpr std::uint32_t max_depth = 1000;

}  // namespace dtpp::d
