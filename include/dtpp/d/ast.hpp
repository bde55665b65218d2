// The syntax tree of a D program as the parser builds it; the checker turns it into ir::program.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "dtpp/d/span.hpp"

namespace dtpp::d::ast {

using span = d::span;

enum class node_kind : std::uint8_t {
  integer,      ///< text: the literal as written (digits and suffix)
  character,    ///< text: the character's value after escapes (one or more bytes)
  string,       ///< text: the string after escapes
  identifier,   ///< text: the name
  macro,        ///< text: "$1", "$$1", "$target", ...
  aggregation,  ///< text: the name without '@' ("" for @)
  prefix,       ///< text: the operator ("-", "!", "++", ...); kids: operand
  postfix,      ///< text: "++" or "--"; kids: operand
  binary,       ///< text: the operator; kids: left, right
  conditional,  ///< kids: condition, then, else
  assign,       ///< text: "=", "+=", ...; kids: target, value
  call,         ///< kids: callee, arguments...
  index,        ///< kids: base, keys...
  member,       ///< text: "." or "->"; kids: base; name: the member
  cast,         ///< text: the type name; kids: operand
  sizeof_type,  ///< text: the type name
  sizeof_expr,  ///< kids: operand
  stringof,     ///< kids: operand
  offsetof,     ///< text: the struct or union type's name; name: the member
};

struct node;
using node_ptr = std::shared_ptr<node>;

/// One expression node. A single node type keeps the grammar's attributes simple; the checker
/// dispatches on `kind`.
struct node {
  node_kind kind = node_kind::integer;
  std::string text;
  std::string name;  ///< member name for node_kind::member and offsetof
  std::vector<node_ptr> kids;
  span where;
  std::uint32_t depth = 1;  ///< levels below and including this node
};

/// provider:module:function:name as written, glob characters and macros unexpanded.
struct probe_description {
  std::string text;
  span where;
};

/// `descriptions /predicate/ { statements }`.
struct clause {
  std::vector<probe_description> probes;
  node_ptr predicate;             ///< null when there is none
  bool has_body = false;          ///< `BEGIN` alone enables the default action
  std::vector<node_ptr> statements;
  span where;
};

/// `#pragma D option name[=value]`.
struct pragma {
  std::string name;
  std::string value;  ///< empty when none was given
  bool has_value = false;
  span where;
};

/// A declaration outside the clauses: a variable (`int i;`, `self uint64_t ts;`,
/// `this long long v;`, `int counts[string, int];`) or an inline (`inline int MAX = 10;`), a name
/// that stands for its expression, converted to its type, wherever it is used.
struct declaration {
  std::string scope;  ///< "", "self" or "this"
  std::string type;
  std::string name;
  std::vector<std::string> keys;  ///< key types of an associative array
  bool is_inline = false;
  node_ptr value;  ///< an inline's expression; a variable's initializer, which D refuses
  span where;
};

struct program {
  std::vector<std::variant<pragma, clause, declaration>> items;
};

}  // namespace dtpp::d::ast
