// Compile errors with their place: collected by the parser and checker, rendered by the command.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dtpp/d/ast.hpp"
#include "dtpp/d/source.hpp"

namespace dtpp::d {

/// One error: DTrace's tag (D_SYNTAX, D_AGG_REDEF, ...), its message (DTrace's words; extra
/// lines start with a tab), and the span of source it is about (`nowhere` for errors about the
/// command line, such as an unused argument).
struct diagnostic {
  static constexpr ast::span nowhere = d::nowhere;

  std::string tag;
  std::string message;
  ast::span where;
  friend bool operator==(const diagnostic&, const diagnostic&) = default;
};

struct render_options {
  std::string program = "dtrace";  ///< the name the command was invoked by
  bool errtags = false;            ///< -xerrtags: show [D_TAG]
  bool script = true;              ///< -s (source name is a file) or -n (a probe specifier)
  bool source = true;              ///< -xerrsource: the source line and caret under the message
  std::uint32_t first_line = 1;    ///< the number the source's first line is shown with
  /// The file the line is in when it is not the program's own (a header cpp included, a file of
  /// D's library): the place reads `"FILE", line N: `, for -n too, as dtrace(1) words it.
  std::string file{};
};

/// DTrace's first line, then (unless `source` is off) the source line and a caret, with ~ under
/// the rest of the span:
///
///     dtpp: failed to compile script x.d: [D_SYNTAX] line 3: syntax error near "}"
///         3 |   @a = count(;
///           |              ^
///
/// For -n, DTrace's shape is "dtpp: invalid probe specifier SPEC: MSG", with no line number.
inline std::string render(const diagnostic& d, const source_file& source,
                          const render_options& options = {}) {
  const bool placed = d.where != diagnostic::nowhere;
  const auto at = source.at(placed ? d.where.begin : 0);
  std::string out = options.program + ": ";
  out += options.script ? "failed to compile script " : "invalid probe specifier ";
  out += source.name() + ": ";
  if (options.errtags && !d.tag.empty()) out += "[" + d.tag + "] ";  // the lexer's errors have no tag
  const std::string number = std::to_string(at.line - 1 + options.first_line);
  if (placed && !options.file.empty()) out += "\"" + options.file + "\", line " + number + ": ";
  else if (options.script && placed) out += "line " + number + ": ";
  out += d.message + "\n";
  if (!placed || !options.source) return out;
  const auto line = source.line_text(at.line);
  out += "    " + number + " | " + std::string(line) + "\n";
  out += std::string(number.size() + 5, ' ') + "| ";
  for (std::uint32_t i = 1; i < at.column && i - 1 < line.size(); ++i)
    out += line[i - 1] == '\t' ? '\t' : ' ';
  out += '^';
  const auto last = d.where.end > d.where.begin ? d.where.end - 1 : d.where.begin;
  const auto end = source.at(last);
  if (end.line == at.line)
    for (auto c = at.column; c < end.column; ++c) out += '~';
  out += '\n';
  return out;
}

}  // namespace dtpp::d
