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
  floating,     ///< text: a floating-point literal as written, which D refuses
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
  cast,         ///< text: the type name (its stars for a `record`); kids: operand
  sizeof_type,  ///< text: the type name (its stars for a `record`)
  sizeof_expr,  ///< kids: operand
  stringof,     ///< kids: operand
  xlate,        ///< text: the output type ("struct out", "psinfo_t *"); kids: operand
  offsetof,     ///< text: the struct or union type's name; name: the member
};

struct node;
using node_ptr = std::shared_ptr<node>;

/// A struct, union or enum written where a type name stands (`struct { int a; } x;`,
/// `sizeof(union { ... })`): one type, without a tag, shared by every name the declaration declares.
struct type_declaration;
using anonymous_record = std::shared_ptr<const type_declaration>;

/// One expression node. A single node type keeps the grammar's attributes simple; the checker
/// dispatches on `kind`.
struct node {
  node_kind kind = node_kind::integer;
  std::string text;
  std::string name;  ///< member name for node_kind::member and offsetof
  std::vector<node_ptr> kids;
  anonymous_record record;  ///< a cast's or sizeof's type when written as `struct { ... }`
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

/// `#pragma D depends_on library name.d`: allowed in a library file only (the main program gets
/// D's library whole).
struct library_dependency {
  std::string name;
  span where;
};

/// A declaration outside the clauses: a variable (`int i;`, `self uint64_t ts;`,
/// `this long long v;`, `int counts[string, int];`, `char buf[16];`, `int m[2][3];`) or an
/// inline (`inline int MAX = 10;`), a name that stands for its expression, converted to its
/// type, wherever it is used. `int a, *p, b[2];` is three of them, each with its own stars and
/// brackets, as C binds them.
/// A parameter of a function's prototype as written (`int`, `char *s`, `void`, `...`), which
/// the checker holds to DTrace's rules.
struct parameter {
  std::string storage;  ///< a storage class before it (`static int`), which D refuses
  std::string type;     ///< "..." for a variable-length list
  std::string name;
  bool dynamic = false;  ///< `int a[int]`: an associative array
};

struct declaration {
  std::string scope;  ///< "", "self" or "this"
  std::string type;   ///< the type's name; only the stars after it when `record` is set
  anonymous_record record;  ///< the type when written as `struct { ... }`; null otherwise
  std::string name;
  std::vector<std::string> keys;  ///< key types of an associative array
  std::vector<std::string> key_names;  ///< an inline array's parameter names (`i[int x]`), or ""
  bool variadic_keys = false;  ///< `a[...]`, which D refuses
  std::vector<parameter> parameters;  ///< a function's, when is_function
  /// An array's dimensions as written, outermost first ("" for `[]`, which D refuses).
  std::vector<std::string> dimensions;
  bool is_inline = false;
  bool is_function = false;  ///< `type name(parameters)`: a prototype, which declares no variable
  node_ptr value;  ///< an inline's expression; a variable's initializer, which D refuses
  span where;
};

/// A member of a struct or union declared in D (`type name;`, `char name[16];`), an enumerator
/// (`NAME = value`) or a translator's member (`name = expression;`).
struct declared_member {
  std::string type;  ///< a struct or union member's type (a `record`'s stars); empty otherwise
  anonymous_record record;  ///< the member's type when written as `struct { ... }`
  std::string name;
  std::string count;  ///< an array member's element count as written; empty for others
  node_ptr bits;      ///< a bit-field's width (`int a : 3;`); null for others
  bool is_function = false;  ///< `int f();`: a function, which no struct may hold
  node_ptr value;     ///< an enumerator's value (may be null) or a translator member's expression
  span where;
};

/// A variable declared with a struct, union or enum (`struct s { ... } a, *p, r[2];`): its own
/// stars and dimensions.
struct declarator {
  std::string stars;  ///< "*" for `*p`
  std::string name;
  std::vector<std::string> dimensions;  ///< as ast::declaration's
};

/// `struct s { ... };`, `union u { ... };`, `enum e { ... };` or `typedef type name;`. A struct,
/// union or enum may declare variables of its type too (`struct s { int i; } *p, a[2];`).
struct type_declaration {
  std::string keyword;  ///< "struct", "union", "enum" or "typedef"
  std::string name;     ///< the tag ("" for an anonymous type) or the typedef's new name
  std::string type;     ///< a typedef's type (its stars for a `record`)
  anonymous_record record;  ///< a typedef's type when written as `struct { ... }`
  std::vector<declared_member> members;
  std::vector<declarator> variables;  ///< those declared with the type
  span where;
};

/// `translator output < input parameter > { member = expression; ... };`
struct translator {
  std::string output;
  std::string input;
  std::string parameter;
  std::vector<declared_member> members;
  span where;
};

/// `#pragma D attributes attributes name`: the identifier named, which the program or D must
/// declare somewhere (its stability attributes are not kept).
struct attributes_pragma {
  std::string name;
  span where;
};

struct program {
  std::vector<std::variant<pragma, library_dependency, clause, declaration, type_declaration, translator>> items;
  std::vector<attributes_pragma> attributes_pragmas;
};

}  // namespace dtpp::d::ast
