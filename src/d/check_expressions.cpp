// The D checker: expressions, their constants, macros, variables and operators, and the
// folding of operators on constants.

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker.hpp"

namespace dtpp::d::detail {

namespace {

struct builtin_info { const char* name; ir::builtin id; type t; };
// Built once and never changed, so that checkers on several threads share it. String variables
// take the program's strsize when they are used (string_sized).
const std::vector<builtin_info>& builtins() {
  static const std::vector<builtin_info> table = [] {
    const type str{type::category::string, 0, false, "string"};
    return std::vector<builtin_info>{
        {"timestamp", ir::builtin::timestamp, integer_type("uint64_t", 8, false)},
        {"vtimestamp", ir::builtin::vtimestamp, integer_type("uint64_t", 8, false)},
        {"walltimestamp", ir::builtin::walltimestamp, integer_type("int64_t", 8, true)},
        {"pid", ir::builtin::pid, integer_type("pid_t", 4, true)},
        {"ppid", ir::builtin::ppid, integer_type("pid_t", 4, true)},
        {"tid", ir::builtin::tid, integer_type("id_t", 4, true)},
        {"uid", ir::builtin::uid, integer_type("uid_t", 4, false)},
        {"gid", ir::builtin::gid, integer_type("gid_t", 4, false)},
        {"cpu", ir::builtin::cpu, integer_type("processorid_t", 4, true)},
        {"execname", ir::builtin::execname, str},
        {"probeprov", ir::builtin::probeprov, str},
        {"probemod", ir::builtin::probemod, str},
        {"probefunc", ir::builtin::probefunc, str},
        {"probename", ir::builtin::probename, str},
        {"errno", ir::builtin::errno_value, int_type()},
        {"epid", ir::builtin::epid, integer_type("uint64_t", 8, false)},
        {"id", ir::builtin::id, integer_type("uint_t", 4, false)},
        {"caller", ir::builtin::caller, integer_type("uintptr_t", 8, false)},
        {"ucaller", ir::builtin::ucaller, integer_type("uint64_t", 8, false)},
        {"stackdepth", ir::builtin::stackdepth, integer_type("uint32_t", 4, false)},
        {"ustackdepth", ir::builtin::ustackdepth, integer_type("uint32_t", 4, false)}};
  }();
  return table;
}

// The variables D gives and a program may read but not write: arg0 .. arg9 and the table's.
bool is_builtin_name(const std::string& name) {
  return (name.size() == 4 && name.rfind("arg", 0) == 0) ||
         std::any_of(builtins().begin(), builtins().end(), [&](const builtin_info& b) { return name == b.name; });
}

}  // namespace

std::optional<std::string> checker::macro_value(const std::string& name) {
  if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    // $N with more digits than any argument list has is simply undefined (no stoul overflow).
    const std::size_t i = name.size() > 9 ? options_.arguments.size() : std::strtoul(name.c_str(), nullptr, 10);
    if (i < options_.arguments.size()) {
      referenced_[i] = true;
      return options_.arguments[i];
    }
    return std::nullopt;
  }
  if (name == "target") return std::to_string(options_.target);
  if (name == "pid") return std::to_string(::getpid());
  if (name == "ppid") return std::to_string(::getppid());
  if (name == "uid") return std::to_string(::getuid());
  if (name == "gid") return std::to_string(::getgid());
  if (name == "euid") return std::to_string(::geteuid());
  if (name == "egid") return std::to_string(::getegid());
  if (name == "pgid") return std::to_string(::getpgrp());
  if (name == "sid") return std::to_string(::getsid(0));
  return std::nullopt;
}

namespace {

// A macro reference as written: `$$1` is argument 1 as a string; `$target` a macro variable.
struct macro_reference {
  bool as_string;
  std::string name;
  bool is_argument() const { return std::isdigit(static_cast<unsigned char>(name[0])) != 0; }
};

macro_reference reference_of(const ast::node_ptr& n) {
  const bool as_string = n->text.size() > 1 && n->text[1] == '$';
  return {as_string, n->text.substr(as_string ? 2 : 1)};
}

}  // namespace

// What a macro reference stands for: its value, or "" or "0" for a missing argument under
// defaultargs; none when it is not defined.
std::optional<std::string> checker::macro_text(const ast::node_ptr& n) {
  const auto r = reference_of(n);
  if (auto v = macro_value(r.name)) return v;
  if (r.is_argument() && options_.defaultargs) return r.as_string ? "" : "0";
  return std::nullopt;
}

diagnostic checker::undefined_macro(const ast::node_ptr& n) {
  return {"D_MACRO_UNDEF",
          std::string(reference_of(n).is_argument() ? "macro argument " : "macro variable ") + n->text + " is not defined",
          n->where};
}

expr checker::macro(const ast::node_ptr& n) {
  const bool as_string = reference_of(n).as_string;
  const auto v = macro_text(n);
  if (!v) {
    result_.errors.push_back(undefined_macro(n));
    throw failed{};
  }
  if (as_string) return string_constant(*v, n->where);
  // $N: an integer when it reads as one, else an identifier, else a string.
  const auto& text = *v;
  errno = 0;
  char* end = nullptr;
  const bool negative = !text.empty() && text[0] == '-';
  const std::size_t digits = negative || (!text.empty() && text[0] == '+');
  const auto magnitude = std::strtoull(text.c_str() + digits, &end, 0);
  if (errno == ERANGE && std::isdigit(static_cast<unsigned char>(text[digits])))
    fail("D_MACRO_OFLOW", "macro argument " + n->text + " constant " + text.substr(digits) + " results in integer overflow",
         n->where);
  if (!text.empty() && *end == '\0' && errno == 0 && std::isdigit(static_cast<unsigned char>(text[digits]))) {
    // As a literal: a decimal one is signed, an octal or hexadecimal one may be unsigned.
    const bool decimal = text[digits] != '0';
    auto e = integer_constant(magnitude, decimal, false, n->where, 0, decimal);
    if (negative) e.value = ir::fit(-e.value, e.t);
    return e;
  }
  if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
    return identifier(text, n->where);
  std::string s = text;
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return string_constant(s, n->where);
}

expr checker::string_constant(std::string s, ast::span where) {
  expr e;
  e.kind = kind_t::string;
  e.t = {type::category::string, options_.string_bytes(), false, "string"};
  e.text = std::move(s);
  e.where = where;
  return e;
}

// NULL (the integer constant 0) where a string is wanted, as DTrace allows in `s == NULL` and
// `s = NULL`: the NULL string, which orders before "" and faults where its bytes are read.
bool checker::is_null(const expr& v) { return v.kind == kind_t::constant && v.t.is_integer() && v.value == 0; }

expr checker::null_as_string(expr v, const type& wanted) {
  if (!wanted.is_string() || !is_null(v)) return v;
  auto null = string_constant("", v.where);
  null.value = 1;
  return null;
}

// A string where a pointer is wanted (`(char *)s`, `char *p = probeprov`): the address of its
// bytes, a cast (ir::expr::kind_t::cast), which last while the clause runs, as dtrace-utils'
// strings are a char pointer; NULL's is 0.
expr checker::string_address(expr v, const type& pointer) { return cast_to(std::move(v), pointer); }

// D's choice of type for a constant: the first of its candidate types that holds it.
expr checker::integer_constant(std::uint64_t v, bool decimal_or_lower_u_suffix, bool unused, ast::span where,
                               int start, bool step_two) {
  (void)decimal_or_lower_u_suffix;
  (void)unused;
  static const struct { const char* name; std::uint32_t size; bool is_signed; std::uint64_t max; } candidates[] = {
      {"int", 4, true, INT32_MAX}, {"unsigned int", 4, false, UINT32_MAX},
      {"long", 8, true, INT64_MAX}, {"unsigned long", 8, false, UINT64_MAX},
      {"long long", 8, true, INT64_MAX}, {"unsigned long long", 8, false, UINT64_MAX}};
  for (int i = start; i < 6; i += step_two ? 2 : 1)
    if (v <= candidates[i].max) {
      expr e;
      e.kind = kind_t::constant;
      e.t = integer_type(candidates[i].name, candidates[i].size, candidates[i].is_signed);
      e.value = static_cast<std::int64_t>(v);
      e.where = where;
      return e;
    }
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(v));
  fail("D_INT_OFLOW", std::string("integer constant ") + hex + " cannot be represented in any built-in integral type", where);
}

expr checker::integer_literal(const ast::node_ptr& n) {
  const auto& text = n->text;
  std::size_t digits_end = text.find_first_of("uUlL");
  if (digits_end == std::string::npos) digits_end = text.size();
  const auto digits = text.substr(0, digits_end);
  const bool decimal = digits.size() == 1 || digits[0] != '0';
  if (!decimal && digits.size() > 1 && digits[1] != 'x' && digits[1] != 'X')
    for (char c : digits)
      if (c == '8' || c == '9')
        fail("D_INT_DIGIT", "constant " + text + " contains invalid digit " + std::string(1, c), n->where);
  errno = 0;
  const auto v = std::strtoull(digits.c_str(), nullptr, 0);
  if (errno == ERANGE) fail("D_INT_OFLOW", "constant " + text + " results in integer overflow", n->where);
  int start = 0;
  for (char c : text.substr(digits_end)) start += (c == 'u' || c == 'U') ? 1 : 2;
  const bool step_two = decimal || (digits_end < text.size() && text[digits_end] == 'u');
  return integer_constant(v, decimal, false, n->where, std::min(start, 5), step_two);
}

expr checker::character_literal(const ast::node_ptr& n) {
  std::uint64_t v = 0;
  for (unsigned char c : n->text) v = v << 8 | c;
  return integer_constant(v, true, false, n->where);  // an int, as in C and DTrace's lexer: sizeof('c') is 4
}

// An inline's value: its definition, checked where it is used, as the type it declares.
expr checker::inline_value(const type& t, const ast::node_ptr& node, ast::span where) {
  // An inline has D's own attributes, whatever its definition reads (curpsinfo reads curthread).
  const auto outside = statement_attributes_;
  // A struct or union inline is the object it names (`inline struct r r2 = r1;`: r2.c is r1.c).
  auto e = t.kind == type::category::record ? object(node) : t.is_string() ? value(node) : cast_to(value(node), t);
  statement_attributes_ = outside;
  e.where = where;
  return e;
}

// i[k1, k2] of an inline array (`inline int i[int x, int y] = x + y;`): its definition with
// each parameter standing for its key's value, as the parameter's type.
expr checker::inline_element(const ast::node_ptr& n) {
  const auto& name = n->kids[0]->text;
  const auto& [t, node] = inlines_.at(name);
  const auto& keys = inline_keys_.at(name);
  if (n->kids.size() - 1 != keys.size())
    fail("D_PROTO_LEN", name + "[ ] prototype mismatch: " + std::to_string(n->kids.size() - 1) +
                            (n->kids.size() == 2 ? " key" : " keys") + " passed, " + std::to_string(keys.size()) + " expected",
         n->where);
  std::vector<std::pair<std::string, expr>> bound;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto k = value(n->kids[i + 1]);
    if (!key_fits(keys[i].second, k.t))
      fail("D_PROTO_ARG", name + "[ ] key #" + std::to_string(i + 1) + " is incompatible with prototype:\n\tprototype: " +
                              keys[i].second.name + "\n\t      key: " + k.t.name,
           n->kids[i + 1]->where);
    bound.emplace_back(keys[i].first, keys[i].second.is_string() ? std::move(k) : cast_to(std::move(k), keys[i].second));
  }
  const bound_parameters parameters(parameters_, std::move(bound));
  return inline_value(t, node, n->where);
}

bool checker::names_identifier(const std::string& name) const {
  if (globals_.contains(name) || inlines_.contains(name) || enumerators_.contains(name) || is_builtin_name(name))
    return true;
  static const std::set<std::string, std::less<>> others = {"curthread", "ipl", "zonename", "args", "uregs", "cwd", "root"};
  std::int64_t value = 0;
  return others.contains(name) || library_constant(name, value).has_value();
}

expr checker::identifier(const std::string& name, ast::span where) {
  if (external_symbols_.contains(name) && !globals_.contains(name))
    fail("D_UNKNOWN", "kernel symbols (`" + name + ") are not supported yet", where);
  for (auto it = parameters_.rbegin(); it != parameters_.rend(); ++it)
    if (it->first == name) {
      auto e = it->second;
      e.where = where;
      return e;
    }
  if (const auto it = enumerators_.find(name); it != enumerators_.end()) {
    expr e;
    e.kind = kind_t::constant;
    e.t = it->second.first;
    e.value = it->second.second;
    e.where = where;
    return e;
  }
  if (const auto it = inlines_.find(name); it != inlines_.end()) {
    if (inline_keys_.contains(name)) fail("D_PROTO_LEN", name + "[ ] prototype mismatch: 0 keys passed, " +
                                                              std::to_string(inline_keys_.at(name).size()) + " expected", where);
    return inline_value(it->second.first, it->second.second, where);
  }
  if (name.size() == 4 && name.rfind("arg", 0) == 0 && std::isdigit(static_cast<unsigned char>(name[3])))
    return untyped_argument(name[3] - '0', where);
  for (const auto& b : builtins())
    if (name == b.name) {
      if (name == "probeprov") use_context_attributes(&provider_attributes::provider);
      if (name == "probemod") use_context_attributes(&provider_attributes::module);
      if (name == "probefunc") use_context_attributes(&provider_attributes::function);
      if (name == "probename") use_context_attributes(&provider_attributes::name);
      expr e;
      e.kind = kind_t::builtin;
      e.index = static_cast<std::uint32_t>(b.id);
      e.t = b.t;
      if (e.t.is_string()) e.t.size = options_.string_bytes();
      e.text = name;
      e.where = where;
      return e;
    }
  if (name == "curthread") {
    use_attributes({stable_, private_, common_});  // the kernel's own structure
    return curthread(where);
  }
  // One value each on Linux, as dtrace-utils has them: no interrupt priority levels, one zone.
  if (name == "ipl") return cast_to(integer_constant(0, true, false, where), integer_type("uint_t", 4, false));
  if (name == "zonename") return string_constant("global", where);
  std::int64_t constant = 0;
  if (const auto t = library_constant(name, constant)) {
    expr e;
    e.kind = kind_t::constant;
    e.t = *t;
    e.value = constant;
    e.where = where;
    return e;
  }
  const auto it = globals_.find(name);
  // The task's directories are paths that the program would build from fs->pwd and fs->root:
  // the kernel's bpf_d_path() serves fentry and LSM programs only, and dtpp does not walk the
  // dentries itself yet.
  if (it == globals_.end() && (name == "cwd" || name == "root"))
    fail("D_UNKNOWN", name + " is not supported yet: it is the path of the task's fs->" + (name == "cwd" ? "pwd" : "root") +
                          ", which only fentry and LSM programs can build (bpf_d_path), and dtpp does not build it itself yet",
         where);
  if (it == globals_.end() && (name == "args" || name == "uregs"))
    fail("D_IDENT_BADREF", "array " + name + "[ ] may not be referenced without an index", where);
  if (it == globals_.end())
    fail("D_IDENT_UNDEF", "failed to resolve " + name + ": Unknown variable name", where);
  if (!result_.program.variables[it->second].keys.empty())
    fail("D_IDENT_BADREF", "associative array '" + name + "' may not be referenced as scalar", where);
  return variable_ref(it->second, where);
}

expr checker::variable_ref(std::uint32_t id, ast::span where) {
  const auto& v = result_.program.variables[id];
  expr e;
  e.kind = kind_t::variable;
  e.index = id;
  e.t = v.value;
  e.text = v.name;
  e.where = where;
  return e;
}

std::uint32_t checker::new_variable(std::string name, ir::scope s, type t, std::vector<type> keys) {
  const auto id = static_cast<std::uint32_t>(result_.program.variables.size());
  result_.program.variables.push_back({id, std::move(name), s, std::move(t), std::move(keys)});
  return id;
}

// Folds an integer operation on constants as DTrace folds them while parsing: in 64 bits, the
// type (t: its signedness) following C's rules but the value not narrowed to it; stores, casts
// and records narrow it.
std::optional<std::int64_t> checker::fold(ir::op op, std::int64_t a, std::int64_t b, const type& t) {
  const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  const bool s = t.is_signed;
  const bool less = s ? a < b : ua < ub;
  const bool greater = s ? a > b : ua > ub;
  switch (op) {
    case ir::op::add: return static_cast<std::int64_t>(ua + ub);
    case ir::op::subtract: return static_cast<std::int64_t>(ua - ub);
    case ir::op::multiply: return static_cast<std::int64_t>(ua * ub);
    case ir::op::divide:
    case ir::op::modulo: {
      const bool quotient = op == ir::op::divide;
      if (b == 0) return std::nullopt;
      if (s && a == std::numeric_limits<std::int64_t>::min() && b == -1) return quotient ? a : 0;
      if (quotient) return s ? a / b : static_cast<std::int64_t>(ua / ub);
      return s ? a % b : static_cast<std::int64_t>(ua % ub);
    }
    case ir::op::bit_and: return a & b;
    case ir::op::bit_or: return a | b;
    case ir::op::bit_xor: return a ^ b;
    case ir::op::shift_left: return static_cast<std::int64_t>(ua << (ub & 63));
    case ir::op::shift_right: return s ? a >> (ub & 63) : static_cast<std::int64_t>(ua >> (ub & 63));
    case ir::op::less: return less;
    case ir::op::less_equal: return !greater;
    case ir::op::greater: return greater;
    case ir::op::greater_equal: return !less;
    case ir::op::equal: return a == b;
    case ir::op::not_equal: return a != b;
    case ir::op::logical_and: return a && b;
    case ir::op::logical_or: return a || b;
    case ir::op::logical_xor: return (a != 0) != (b != 0);
    case ir::op::negate:
    case ir::op::plus:
    case ir::op::logical_not:
    case ir::op::complement:
    case ir::op::assign:
    case ir::op::increment:
    case ir::op::decrement: return std::nullopt;  // not binary
  }
  return std::nullopt;
}

// A unary operator on a constant, folded likewise.
std::int64_t checker::fold(ir::op op, std::int64_t v) {
  if (op == ir::op::negate) return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v));
  if (op == ir::op::complement) return ~v;
  if (op == ir::op::logical_not) return v == 0;
  return v;  // plus
}

expr checker::value(const ast::node_ptr& n) { return value_of(object(n), n->where); }

expr checker::value_of(expr e, ast::span where) {
  // A char array is its string, as DTrace traces, prints and compares it; so is a string in
  // memory (`*p` of a `string *`).
  if (e.t.kind == type::category::array && holds_chars(e.t, where)) return memory_string(std::move(e), where);
  if (e.kind == kind_t::memory && e.t.is_string()) return memory_string(memory_address(std::move(e)), where, false);
  if (e.t.is_object()) fail("D_UNKNOWN", "a value of type \"" + e.t.name + "\" is not supported yet", where);
  return e;
}

// Where an object in memory starts, as a char pointer: the address kids[0] stands for, plus the
// object's offset in bytes (added as such: cast_to() leaves a struct pointer's type, and its
// step, as they are).
expr checker::memory_address(expr m) {
  const auto where = m.where;
  const auto offset = static_cast<std::uint64_t>(m.value);
  const auto char_pointer = integer_type("char *", 8, false);
  auto start = cast_to(std::move(m.kids[0]), char_pointer);
  if (offset == 0) return start;
  return arithmetic(ir::op::add, std::move(start), cast_to(sized(offset, where), char_pointer), char_pointer, where);
}

// An array where a pointer is wanted: its address, as in C. One in memory (a member, `*p`) is
// where it starts; a variable's stands for its address already.
expr checker::array_address(expr a, const type& pointer) {
  if (a.kind == kind_t::memory) a = memory_address(std::move(a));
  a.t = pointer;
  return a;
}

// *p = s of a string in memory: its bytes and the zeros after them copied there, as bcopy()
// copies a string's (into scratch memory only, checked when it runs).
expr checker::string_store(expr target, expr v, std::uint32_t bytes) {
  expr e;
  e.kind = kind_t::call;
  e.function = ir::subroutine::bcopy;
  e.t = void_type();
  e.where = target.where;
  e.kids.push_back(std::move(v));
  e.kids.push_back(cast_to(memory_address(std::move(target)), integer_type("void *", 8, false)));
  e.kids.push_back(cast_to(sized(bytes, e.where), integer_type("size_t", 8, false)));
  return e;
}

expr checker::object(const ast::node_ptr& n) {
  switch (n->kind) {
    case ast::node_kind::integer: return integer_literal(n);
    case ast::node_kind::floating: fail("D_SYNTAX", "floating-point constants are not permitted", n->where);
    case ast::node_kind::character: return character_literal(n);
    case ast::node_kind::string: return string_constant(n->text, n->where);
    case ast::node_kind::macro: return macro(n);
    case ast::node_kind::identifier:
      if (n->text == "self" || n->text == "this")
        fail("D_SYNTAX", "syntax error near \"" + n->text + "\"", n->where);
      return identifier(n->text, n->where);
    case ast::node_kind::aggregation:
      fail("D_AGG_NULL", "expression has null effect: @" + aggregation_name(n->text), n->where);
    case ast::node_kind::member: return member(n, nullptr);
    case ast::node_kind::index: return index(n, nullptr);
    case ast::node_kind::call: return call(n);
    case ast::node_kind::prefix: return prefix(n);
    case ast::node_kind::postfix: return increment(n, false);
    case ast::node_kind::binary: return binary(n);
    case ast::node_kind::conditional: return conditional(n);
    case ast::node_kind::assign: return assign(n);
    case ast::node_kind::cast: return cast(n);
    case ast::node_kind::offsetof: return offset_of(n);
    // Out of this function, whose frame each level of a deep expression's recursion holds.
    case ast::node_kind::sizeof_type:
    case ast::node_kind::sizeof_expr: return size_of_operand(n);
    case ast::node_kind::stringof: return string_of(n);
    case ast::node_kind::xlate: return translated_whole(n->text, object(n->kids[0]), n->where);
  }
  fail("D_UNKNOWN", "internal error: unknown expression", n->where);
}

// sizeof's value: a string's is strsize; void and a struct only declared forward have none.
expr checker::size_of(const type& t, ast::span where) {
  if (t.is_string()) return sized(options_.strsize, where);
  if (t.size == 0) fail("D_SIZEOF_TYPE", "cannot apply sizeof to an operand of unknown size", where);
  return sized(t.size, where);
}

expr checker::sized(std::uint64_t size, ast::span where) {
  expr e;
  e.kind = kind_t::constant;
  e.t = integer_type("size_t", 8, false);
  e.value = static_cast<std::int64_t>(size);
  e.where = where;
  return e;
}

// self->x, this->x. `assigned` is the value's type when the member is being assigned.
expr checker::member(const ast::node_ptr& n, const type* assigned) {
  const auto& base = n->kids[0];
  if (n->text == "->" && base->kind == ast::node_kind::identifier && base->text == "args") {
    use_context_attributes(&provider_attributes::arguments);
    return named_argument(n->name, n->where);
  }
  if (n->text != "->" || base->kind != ast::node_kind::identifier || (base->text != "self" && base->text != "this"))
    return object_member(n);
  const bool thread = base->text == "self";
  auto& table = thread ? thread_locals_ : clause_locals_;
  const auto prefix = base->text + "->";
  auto it = table.find(n->name);
  if (it == table.end()) {
    if (!assigned)
      fail("D_VAR_UNDEF", prefix + n->name + " has not yet been declared or assigned", n->where);
    const auto id = new_variable(prefix + n->name, thread ? ir::scope::thread : ir::scope::clause, *assigned);
    it = table.emplace(n->name, id).first;
  }
  return variable_ref(it->second, n->where);
}

// Whether x[i] is an element in memory (of a pointer or an array) rather than of an associative
// array: any base but a variable name, and a variable (global or self->) that is no associative
// array.
bool checker::indexes_memory(const ast::node_ptr& n) {
  const auto& base = n->kids[0];
  // this->x[k] of an undeclared x could only be an associative array, which a clause local is not.
  if (base->kind == ast::node_kind::member && base->text == "->" && base->kids[0]->kind == ast::node_kind::identifier &&
      base->kids[0]->text == "this" && !clause_locals_.contains(base->name))
    fail("D_ARR_LOCAL", "local variables may not be used as associative arrays: this->" + base->name, n->where);
  const bool thread = base->kind == ast::node_kind::member && base->text == "->" &&
                      base->kids[0]->kind == ast::node_kind::identifier && base->kids[0]->text == "self";
  if (base->kind != ast::node_kind::identifier && !thread) return true;
  if (!thread && (base->text == "uregs" || base->text == "args")) return false;
  const auto& table = thread ? thread_locals_ : globals_;
  const auto it = table.find(thread ? base->name : base->text);
  if (it == table.end()) return !thread && is_builtin_name(base->text);  // execname[0]
  return result_.program.variables[it->second].keys.empty();
}

// args[N], and associative arrays a[k...] (created by assignment).
expr checker::index(const ast::node_ptr& n, const type* assigned) {
  const auto& base = n->kids[0];
  if (base->kind == ast::node_kind::aggregation)
    fail("D_OP_INCOMPAT", "operands have incompatible types: \"aggregation\" [ ] \"" + std::string("int") + "\"", n->where);
  const bool thread_array = base->kind == ast::node_kind::member && base->text == "->" &&
                            base->kids[0]->kind == ast::node_kind::identifier &&
                            base->kids[0]->text == "self";
  if (indexes_memory(n)) return element_of(n);
  if (base->text == "uregs") return user_register(n);
  if (base->text == "args") {
    if (n->kids.size() != 2)
      fail("D_PROTO_LEN", "args[ ] prototype mismatch: " + std::to_string(n->kids.size() - 1) + " args passed, 1 expected", n->where);
    auto i = value(n->kids[1]);
    if (!i.t.is_integer())
      fail("D_PROTO_ARG", "args[ ] argument #1 is incompatible with prototype:\n\tprototype: int64_t\n\t argument: " +
                              i.t.name, n->kids[1]->where);
    if (i.kind != kind_t::constant) fail("D_ARGS_IDX", "args[ ] index must be an integer constant", n->kids[1]->where);
    use_context_attributes(&provider_attributes::arguments);
    return probe_argument(i.value, n->where);
  }
  if (base->kind == ast::node_kind::identifier && inline_keys_.contains(base->text)) return inline_element(n);
  std::vector<expr> keys;
  for (std::size_t i = 1; i < n->kids.size(); ++i) {
    auto k = object(n->kids[i]);  // a struct or union key is its bytes
    keys.push_back(k.t.kind == type::category::record ? std::move(k) : value_of(std::move(k), n->kids[i]->where));
    if (!keys.back().t.is_integer() && !keys.back().t.is_string() && !keys.back().t.is_floating() &&
        keys.back().t.kind != type::category::record)
      fail("D_KEY_TYPE", keys.back().t.name + " expression may not be used as associative array index: key #" + std::to_string(i), n->kids[i]->where);
  }
  check_tuple_size(keys.size());
  auto& table = thread_array ? thread_locals_ : globals_;
  const auto name = thread_array ? base->name : base->text;
  const auto shown = thread_array ? "self->" + name : name;
  auto it = table.find(name);
  if (it == table.end() && !assigned) {
    if (thread_array) fail("D_VAR_UNDEF", shown + " has not yet been declared or assigned", base->where);
    fail("D_IDENT_UNDEF", "failed to resolve " + shown + ": Unknown variable name", base->where);
  }
  // The key types as written: a new array's are its keys'.
  std::vector<type> prototype;
  if (it == table.end())
    for (const auto& k : keys) prototype.push_back(k.t);
  else
    prototype = key_prototypes_.contains(it->second) ? key_prototypes_.at(it->second)
                                                     : result_.program.variables[it->second].keys;
  if (prototype.size() != keys.size())
    fail("D_PROTO_LEN", shown + "[ ] prototype mismatch: " + std::to_string(keys.size()) +
                            (keys.size() == 1 ? " key" : " keys") + " passed, " + std::to_string(prototype.size()) + " expected",
         n->where);
  std::vector<expr> lowered;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!key_fits(prototype[i], keys[i].t))
      fail("D_PROTO_ARG", shown + "[ ] key #" + std::to_string(i + 1) + " is incompatible with prototype:\n\tprototype: " +
                              prototype[i].name + "\n\t      key: " + keys[i].t.name,
           n->kids[i + 1]->where);
    if (keys[i].t.kind != type::category::record) {
      lowered.push_back(cast_to(std::move(keys[i]), prototype[i]));
      continue;
    }
    // A struct or union key: its bytes as words, read where it lies, so that every engine keys
    // the array by them as by integers.
    for (std::uint32_t at = 0; at < keys[i].t.size; at += lowered.back().t.size) {
      expr word;
      word.kind = kind_t::memory;
      word.t = key_word(keys[i].t.size - at);
      word.value = at;
      word.where = keys[i].where;
      if (keys[i].kind == kind_t::memory) {
        word.value += keys[i].value;
        word.kids = keys[i].kids;
      } else {
        word.kids.push_back(keys[i]);
      }
      lowered.push_back(std::move(word));
    }
  }
  if (it == table.end()) {  // the engines key it by the lowered words
    std::vector<type> key_types;
    for (const auto& k : lowered) key_types.push_back(k.t);
    const auto id = new_variable(shown, thread_array ? ir::scope::thread : ir::scope::global, *assigned, key_types);
    key_prototypes_.emplace(id, std::move(prototype));
    it = table.emplace(name, id).first;
  }
  auto e = variable_ref(it->second, n->where);
  e.kids = std::move(lowered);
  return e;
}

// The unsigned integer of 8 bytes, or of the most of 4, 2, 1 that `left` bytes of a struct key hold.
type checker::key_word(std::uint32_t left) { return unsigned_type(left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1); }

namespace {

struct subroutine { ir::subroutine id; const char* result; std::vector<const char*> params; std::size_t required; };

// What sym() ... umod() give: one address kept as a stack of one frame (a user one after the
// process id, as DTrace's _usymaddr records keep it), named by its form when printed.
std::optional<type> symbol_type(ir::subroutine s) {
  using id = ir::subroutine;
  using form = agg::symbol_form;
  const auto user = [](form f) { return type{type::category::ustack, 16, false, "_usymaddr", 0, 0, f}; };
  const auto kernel = [](form f) { return type{type::category::stack, 8, false, "_symaddr", 0, 0, f}; };
  switch (s) {
    case id::sym: case id::func: return kernel(form::function);
    case id::mod: return kernel(form::module);
    case id::usym: case id::ufunc: return user(form::function);
    case id::uaddr: return user(form::address);
    case id::umod: return user(form::module);
    default: return std::nullopt;
  }
}

}  // namespace

expr checker::call(const ast::node_ptr& n) {
  const auto& callee = n->kids[0];
  if (callee->kind != ast::node_kind::identifier)
    fail("D_FUNC_IDENT", "function designator is not of function type", callee->where);
  const auto& name = callee->text;
  // The subroutines dtrace-utils declares Evolving; the others are Stable.
  static const std::set<std::string_view> evolving = {
      "d_path", "ddi_pathname", "getmajor", "getminor", "htonl", "htonll", "htons", "mutex_owned",
      "mutex_owner", "mutex_type_adaptive", "mutex_type_spin", "ntohl", "ntohll", "ntohs",
      "rw_iswriter", "rw_read_held", "rw_write_held"};
  if (evolving.count(name)) use_attributes({evolving_, evolving_, common_});
  if (name.rfind("mutex_", 0) == 0 || name.rfind("rw_", 0) == 0) return lock_query(n);
  using id = ir::subroutine;
  static const subroutine table[] = {
      {id::strlen, "size_t", {"string"}, 1},          {id::strjoin, "string", {"string", "string"}, 2},
      {id::substr, "string", {"string", "int", "int"}, 2}, {id::strchr, "string", {"string", "char"}, 2},
      {id::strrchr, "string", {"string", "char"}, 2}, {id::strstr, "string", {"string", "string"}, 2},
      {id::strtok, "string", {"string", "string"}, 2}, {id::index, "int", {"string", "string", "int"}, 2},
      {id::rindex, "int", {"string", "string", "int"}, 2}, {id::lltostr, "string", {"int64_t", "int"}, 1},
      {id::copyinstr, "string", {"uintptr_t", "size_t"}, 1}, {id::basename, "string", {"string"}, 1},
      {id::dirname, "string", {"string"}, 1},         {id::cleanpath, "string", {"string"}, 1},
      {id::toupper, "string", {"string"}, 1},         {id::tolower, "string", {"string"}, 1},
      {id::strtoll, "int64_t", {"string", "int"}, 1}, {id::htons, "uint16_t", {"uint16_t"}, 1},
      {id::htonl, "uint32_t", {"uint32_t"}, 1},      {id::htonll, "uint64_t", {"uint64_t"}, 1},
      {id::ntohs, "uint16_t", {"uint16_t"}, 1},      {id::ntohl, "uint32_t", {"uint32_t"}, 1},
      {id::ntohll, "uint64_t", {"uint64_t"}, 1},     {id::getmajor, "dev_t", {"dev_t"}, 1},
      {id::getminor, "dev_t", {"dev_t"}, 1},         {id::rand, "int", {}, 0},
      {id::progenyof, "int", {"pid_t"}, 1},          {id::speculation, "int", {}, 0},
      {id::sym, "uintptr_t", {"uintptr_t"}, 1},      {id::func, "uintptr_t", {"uintptr_t"}, 1},
      {id::mod, "uintptr_t", {"uintptr_t"}, 1},      {id::usym, "uintptr_t", {"uintptr_t"}, 1},
      {id::ufunc, "uintptr_t", {"uintptr_t"}, 1},    {id::uaddr, "uintptr_t", {"uintptr_t"}, 1},
      {id::umod, "uintptr_t", {"uintptr_t"}, 1},     {id::copyin, "void *", {"uintptr_t", "size_t"}, 2},
      {id::alloca, "void *", {"size_t"}, 1},         {id::inet_ntoa, "string", {"ipaddr_t *"}, 1},
      {id::inet_ntoa6, "string", {"struct in6_addr *", "int"}, 1}, {id::inet_ntop, "string", {"int", "void *"}, 2},
      {id::link_ntop, "string", {"int", "void *"}, 2},
      {id::bcopy, "void", {"void *", "void *", "size_t"}, 3},  {id::copyinto, "void", {"uintptr_t", "size_t", "void *"}, 3}};
  const subroutine* s = nullptr;
  for (const auto& entry : table)
    if (name == ir::name(entry.id)) s = &entry;
  if (!s) {
    if (is_aggregating_function(name))
      fail("D_CG_EXPR", "aggregating function " + name + "( ) may not be called from a D expression (D program context required)", n->where);
    // An action used as a value has type void: the context reports what it cannot take, once
    // the count of its arguments is checked, as DTrace checks a call against the prototype first
    // (`a ? trace() : 0` is D_PROTO_LEN).
    if (const auto* action = find_action(name)) {
      check_argument_count(*action, n);
      expr e;
      e.kind = kind_t::call;
      e.function = ir::subroutine::action;
      e.t = void_type();
      e.where = n->where;
      return e;
    }
    fail("D_FUNC_UNDEF", "undefined function name: " + name, callee->where);
  }
  const auto count = n->kids.size() - 1;
  if (count < s->required || count > s->params.size()) {
    const char* qualifier = s->required == s->params.size() ? "" : count < s->required ? "at least " : "at most ";
    const auto expected = count < s->required ? s->required : s->params.size();
    prototype_mismatch(name, count, expected, qualifier, n->where);
  }
  expr e;
  e.kind = kind_t::call;
  e.function = s->id;
  e.where = n->where;
  for (std::size_t i = 0; i < count; ++i) {
    const auto want = *named_type(s->params[i], options_.string_bytes());
    auto a = object(n->kids[i + 1]);
    // An array passed for a pointer is its address, as in C, where its elements are what the
    // pointer points to (any, for void *).
    const auto element = a.t.kind == type::category::array ? types_.element(a.t.id) : std::nullopt;
    const auto wanted = pointed_to(want);
    if (element && !want.is_string() && want.name.back() == '*' && (!wanted || wanted->is_void() || wanted->name == element->name))
      a = array_address(std::move(a), want);
    else
      a = value_of(std::move(a), n->kids[i + 1]->where);
    // strtok(NULL, delimiters) goes on with the thread's string: the call has the delimiters alone.
    if (s->id == id::strtok && i == 0 && is_null(a)) continue;
    // A char pointer or array is the string where it points (alloca()'d bytes checked against
    // what was taken), and any other NULL string is read there too, faulting at 0
    // (DTRACEFLT_BADADDR), as dtrace-utils reads them.
    if (want.is_string() && is_null(a)) {
      const auto where = a.where;
      a = memory_string(cast_to(std::move(a), integer_type("char *", 8, false)), where, false);
    } else if (want.is_string() && !a.t.is_string() && holds_chars(a.t, a.where)) {
      const auto where = a.where;
      a = memory_string(std::move(a), where, holds_scratch(n->kids[i + 1]));
    }
    // bcopy() copies a string's bytes too, as dtrace-utils' does.
    const bool string_bytes = s->id == id::bcopy && i == 0 && a.t.is_string();
    if (!string_bytes && (want.is_string() != a.t.is_string() || a.t.is_void() || a.t.is_floating() || !fits_pointer_parameter(want, a)))
      fail("D_PROTO_ARG", name + "( ) argument #" + std::to_string(i + 1) + " is incompatible with prototype:\n\tprototype: " +
                              (want.is_string() ? std::string("char *") : want.name) + "\n\t argument: " + a.t.name,
           n->kids[i + 1]->where);
    // bcopy() and copyinto() write only into scratch memory, as DTrace's prototypes say.
    if ((s->id == id::bcopy && i == 1) || (s->id == id::copyinto && i == 2))
      if (!holds_scratch(n->kids[i + 1]))
        fail("D_PROTO_ARG", name + "( ) argument #" + std::to_string(i + 1) +
                                " is incompatible with prototype:\n\tprototype: alloca pointer\n\t argument: non-alloca pointer",
             n->kids[i + 1]->where);
    if ((s->id == id::alloca && i == 0) || (s->id == id::copyin && i == 1))
      if (a.kind == kind_t::constant && static_cast<std::uint64_t>(a.value) > options_.scratch_bytes())
        fail("D_ALLOCA_SIZE", name + "(" + std::to_string(static_cast<std::uint64_t>(a.value)) + ") size larger than scratchsize " + std::to_string(options_.scratch_bytes()),
             n->where);
    // inet_ntoa6()'s second argument picks the code at compile time, as in dtrace-utils.
    if (s->id == id::inet_ntoa6 && i == 1 && a.kind != kind_t::constant)
      fail("D_PROTO_ARG", "inet_ntoa6( ) argument #2 must be an integer constant", n->kids[i + 1]->where);
    e.kids.push_back(want.is_string() || string_bytes ? std::move(a) : cast_to(std::move(a), want));
  }
  e.t = symbol_type(s->id).value_or(*named_type(s->result, options_.string_bytes()));
  return e;
}

ast::node_ptr syntax(ast::node_kind kind, std::string text, std::vector<ast::node_ptr> kids, ast::span where,
                     std::string member) {
  auto n = std::make_shared<ast::node>();
  n->kind = kind;
  n->text = std::move(text);
  n->name = std::move(member);
  n->where = where;
  for (const auto& k : kids) n->depth = std::max(n->depth, k->depth + 1);
  n->kids = std::move(kids);
  return n;
}

// The lock subroutines as dtrace-utils computes them on Linux, written as D over the lock's own
// words so that both the kernel's reads and their faults are those of `->`: a mutex's owner word
// holds its task with three flag bits below; a queued rwlock's count holds the readers above bit 9,
// a waiting writer at bit 8 and a writer in the low byte. Linux's mutexes are all adaptive.
expr checker::lock_query(const ast::node_ptr& n) {
  using ast::node_kind;
  const auto& name = n->kids[0]->text;
  const bool is_mutex = name.rfind("mutex_", 0) == 0;
  static const std::set<std::string_view> known = {"mutex_owned", "mutex_owner", "mutex_type_adaptive", "mutex_type_spin",
                                                   "rw_read_held", "rw_write_held", "rw_iswriter"};
  if (!known.count(name)) fail("D_FUNC_UNDEF", "undefined function name: " + name, n->kids[0]->where);
  if (n->kids.size() != 2) prototype_mismatch(name, n->kids.size() - 1, 1, "", n->where);
  const auto& lock = n->kids[1];
  const std::string parameter = is_mutex ? "struct mutex *" : "rwlock_t *";
  const auto a = value(lock);
  const auto incompatible = [&] {
    fail("D_PROTO_ARG", name + "( ) argument #1 is incompatible with prototype:\n\tprototype: " + parameter +
                            "\n\t argument: " + a.t.name,
         lock->where);
  };
  if (!a.t.is_integer()) incompatible();
  kernel_types(name + "( )", n->where);
  if (!fits_pointer_parameter(*named_type(parameter, options_.string_bytes()), a)) incompatible();
  const auto w = n->where;
  const auto integer = [&](const char* digits) { return syntax(node_kind::integer, digits, {}, w); };
  const auto word = [&](std::vector<std::string> path) {
    auto e = syntax(node_kind::member, "->", {syntax(node_kind::cast, parameter, {lock}, w)}, w, path[0]);
    for (std::size_t i = 1; i < path.size(); ++i) e = syntax(node_kind::member, ".", {e}, w, path[i]);
    return syntax(node_kind::cast, "unsigned long", {e}, w);
  };
  const auto masked = [&](ast::node_ptr e, const char* mask) { return syntax(node_kind::binary, "&", {e, integer(mask)}, w); };
  const auto as = [&](const char* t, ast::node_ptr e) { return syntax(node_kind::cast, t, {e}, w); };
  ast::node_ptr d;
  if (name == "mutex_owner" || name == "mutex_owned") {
    const auto owner = masked(word({"owner", "counter"}), "0xfffffffffffffff8UL");
    d = name == "mutex_owner" ? as("struct task_struct *", owner)
                              : syntax(node_kind::binary, "==", {owner, as("unsigned long", syntax(node_kind::identifier, "curthread", {}, w))}, w);
  } else if (name == "mutex_type_adaptive" || name == "mutex_type_spin") {
    // The lock is still evaluated, for what it does: `lock && 0` is 0, `(lock && 0) || 1` is 1.
    d = syntax(node_kind::binary, "&&", {lock, integer("0")}, w);
    if (name == "mutex_type_adaptive") d = syntax(node_kind::binary, "||", {d, integer("1")}, w);
  } else {
    const auto count = word({"raw_lock", "cnts", "counter"});
    d = as("int", masked(count, name == "rw_read_held" ? "0xfffffe00" : name == "rw_write_held" ? "0xff" : "0x1ff"));
  }
  auto e = value(d);
  e.where = w;
  return e;
}

// uregs[R_...]: registers 0-20 are struct pt_regs's words (the probe's own in pid and USDT
// clauses, elsewhere those the task entered the kernel with); 21-25 (R_DS, R_ES, R_FS, R_GS,
// R_TRAPNO), which pt_regs lacks on x86-64, are read from the task's thread_struct, as
// dtrace-utils reads them.
expr checker::user_register(const ast::node_ptr& n) {
  if (n->kids.size() != 2)
    fail("D_PROTO_LEN", "uregs[ ] prototype mismatch: " + std::to_string(n->kids.size() - 1) + " args passed, 1 expected", n->where);
  const auto i = value(n->kids[1]);
  if (i.kind != kind_t::constant)
    fail("D_PROTO_ARG", "uregs[ ] argument #1 is incompatible with prototype:\n\tprototype: integer constant\n\t argument: " + i.t.name,
         n->kids[1]->where);
  if (i.value < 0 || i.value > 25) fail("D_UNKNOWN", "uregs[]: index out of bounds (" + std::to_string(i.value) + ")", n->where);
  if (i.value > 20) {
    static constexpr const char* members[] = {"ds", "es", "fsbase", "gsbase", "trap_nr"};
    const auto w = n->where;
    const auto thread = syntax(ast::node_kind::member, "->", {syntax(ast::node_kind::identifier, "curthread", {}, w)}, w, "thread");
    auto e = value(syntax(ast::node_kind::cast, "uint64_t",
                          {syntax(ast::node_kind::member, ".", {thread}, w, members[i.value - 21])}, w));
    e.where = w;
    return e;
  }
  expr e;
  e.kind = kind_t::builtin;
  e.index = static_cast<std::uint32_t>(ir::builtin::uregs);
  e.value = i.value;
  e.t = integer_type("uint64_t", 8, false);
  e.text = "uregs";
  e.where = n->where;
  return e;
}

// A pointer parameter takes NULL (an integer constant 0), a pointer to void, or a pointer to its
// own type; for a pointer to void, any pointer. Other parameters take what the caller casts.
bool checker::fits_pointer_parameter(const type& parameter, const expr& argument) {
  if (parameter.name.empty() || parameter.name.back() != '*' || is_null(argument)) return true;
  const auto target = pointed_to(argument.t);
  const auto wanted = pointed_to(parameter);
  if (!target || !wanted) return false;
  if (target->is_void() || wanted->is_void()) return true;
  if (wanted->is_object()) return target->is_object() && target->id == wanted->id;
  return target->is_integer() && target->size == wanted->size && target->is_signed == wanted->is_signed;
}

expr checker::prefix(const ast::node_ptr& n) {
  const auto& op = n->text;
  if (op == "++" || op == "--") return increment(n, true);
  if (op == "*") return dereference(n);
  if (op == "&") return address_of(n);
  auto v = value(n->kids[0]);
  if (op == "!") {
    if (!v.t.is_integer()) fail("D_OP_SCALAR", op_message(op, "requires an operand of scalar type"), n->where);
  } else if (!v.t.is_integer() || pointer_step(v.t)) {
    fail(op == "~" ? "D_OP_INT" : "D_OP_ARITH",
         op_message(op, op == "~" ? "requires an operand of integral type" : "requires an operand of arithmetic type"), n->where);
  }
  const type t = op == "!" ? int_type() : promote(v.t, v.t);
  const auto operation = *ir::op_spelled(op, ir::first_unary, ir::last_unary);
  if (v.kind == kind_t::constant) {
    expr c = v;
    c.t = t;
    c.where = n->where;
    c.value = fold(operation, v.value);
    return c;
  }
  expr e;
  e.kind = kind_t::unary;
  e.operation = operation;
  e.t = t;
  e.where = n->where;
  e.kids.push_back(std::move(v));
  return e;
}

bool checker::is_lvalue_kind(const ast::node_ptr& n) {
  return n->kind == ast::node_kind::identifier || n->kind == ast::node_kind::member ||
         (n->kind == ast::node_kind::prefix && n->text == "*") ||
         (n->kind == ast::node_kind::index && n->kids[0]->kind != ast::node_kind::aggregation &&
          !(n->kids[0]->kind == ast::node_kind::identifier && n->kids[0]->text == "args"));
}

// Whether a pointer expression derives, through casts, sums and differences, from alloca() or
// copyin(), or from what `is_root` accepts.
bool checker::derives_from(const ast::node_ptr& n, bool (checker::*is_root)(const ast::node_ptr&)) {
  switch (n->kind) {
    case ast::node_kind::cast:
      return derives_from(n->kids[0], is_root);
    case ast::node_kind::binary:
      return (n->text == "+" || n->text == "-") && (derives_from(n->kids[0], is_root) || derives_from(n->kids[1], is_root));
    case ast::node_kind::call:
      return n->kids[0]->kind == ast::node_kind::identifier && (n->kids[0]->text == "alloca" || n->kids[0]->text == "copyin");
    case ast::node_kind::postfix:  // p++, ++p: p's value, whose flags DTrace's ++ and -- keep
      return derives_from(n->kids[0], is_root);
    case ast::node_kind::prefix:  // &p[i], &p->m: within what p points to
      if (n->text == "&" && (n->kids[0]->kind == ast::node_kind::index || n->kids[0]->kind == ast::node_kind::member))
        return derives_from(n->kids[0]->kids[0], is_root);
      if (n->text == "++" || n->text == "--") return derives_from(n->kids[0], is_root);
      return (this->*is_root)(n);
    default:
      return (this->*is_root)(n);
  }
}

// Whether the memory an expression points into may be written: memory reached from a D variable
// or from alloca() and copyin(), as DTrace's writable flag spreads from variables through casts,
// arithmetic, `*`, `->`, `.` and `[ ]`. The kernel's own objects (curthread, args[]) are not; the
// engine checks at run time that a store lands in the clause's scratch memory.
bool checker::writable(const ast::node_ptr& n) { return derives_from(n, &checker::writable_root); }

bool checker::writable_root(const ast::node_ptr& n) {
  switch (n->kind) {
    case ast::node_kind::identifier:
      return globals_.count(n->text) != 0;
    case ast::node_kind::member:
      if (n->text == "->" && n->kids[0]->kind == ast::node_kind::identifier &&
          (n->kids[0]->text == "self" || n->kids[0]->text == "this"))
        return true;
      return writable(n->kids[0]);
    case ast::node_kind::index:
      return writable(n->kids[0]);
    case ast::node_kind::prefix:
      return n->text == "*" && writable(n->kids[0]);
    default:
      return false;
  }
}

// Whether an expression points into scratch memory: alloca()'s or copyin()'s result, a variable
// assigned one, and casts and sums of them (DTrace's alloca taint).
bool checker::holds_scratch(const ast::node_ptr& n) { return derives_from(n, &checker::scratch_root); }

bool checker::scratch_root(const ast::node_ptr& n) {
  if (n->kind == ast::node_kind::identifier) {
    const auto it = globals_.find(n->text);
    return it != globals_.end() && scratch_variables_.count(it->second) != 0;
  }
  const auto& base = n->kids.empty() ? n : n->kids[0];
  if (n->kind != ast::node_kind::member || n->text != "->" || base->kind != ast::node_kind::identifier ||
      (base->text != "self" && base->text != "this"))
    return false;
  const auto& table = base->text == "self" ? thread_locals_ : clause_locals_;
  const auto it = table.find(n->name);
  return it != table.end() && scratch_variables_.count(it->second) != 0;
}

// *p, p->m, s.m and p[i] as the target of a store: an integer, pointer, struct or union in
// writable memory.
expr checker::memory_lvalue(const ast::node_ptr& n, const std::string& op) {
  const auto& base = n->kids[0];
  auto target = object(n);  // its errors first (an index out of bounds), as DTrace cooks it first
  if (!writable(base)) fail("D_OP_WRITE", op_message(op, "can only be applied to a writable variable"), n->where);
  if (target.kind != kind_t::memory)
    fail("D_OP_LVAL", op_message(op, "requires modifiable lvalue as an operand"), n->where);
  if (target.t.kind == type::category::array)
    fail("D_OP_ARRFUN", "operator " + op + " may not be applied to operand of type \"" + target.t.name + "\"", n->where);
  return target;
}

expr checker::lvalue(const ast::node_ptr& n, const std::string& op, const type* assigned) {
  if (!is_lvalue_kind(n))
    fail("D_OP_LVAL", op_message(op, "requires modifiable lvalue as an operand"), n->where);
  if (n->kind == ast::node_kind::prefix) return memory_lvalue(n, op);
  if (n->kind == ast::node_kind::member) {
    const auto& base = n->kids[0];
    if (n->text != "->" || base->kind != ast::node_kind::identifier || (base->text != "self" && base->text != "this"))
      return memory_lvalue(n, op);
    return member(n, assigned);
  }
  if (n->kind == ast::node_kind::index) {
    if (indexes_memory(n)) return memory_lvalue(n, op);
    return index(n, assigned);
  }
  const auto& name = n->text;
  // A built-in variable is an lvalue that is not writable, as dtrace-utils' cooking finds it.
  if (is_builtin_name(name)) fail("D_OP_WRITE", op_message(op, "can only be applied to a writable variable"), n->where);
  auto it = globals_.find(name);
  if (it == globals_.end()) {
    if (!assigned) fail("D_IDENT_UNDEF", "failed to resolve " + name + ": Unknown variable name", n->where);
    it = globals_.emplace(name, new_variable(name, ir::scope::global, *assigned)).first;
  }
  return variable_ref(it->second, n->where);
}

expr checker::increment(const ast::node_ptr& n, bool is_prefix) {
  // ++ and -- create an int64_t, as libdtrace's dt_cook_op1 does.
  // A bit-field's field += 1; a postfix's value the field's before, one back within its bits.
  if (auto place = bit_field_place(n->kids[0])) {
    const auto f = *place->field;
    const auto one = integer_constant(1, true, false, n->where);
    auto e = bit_field_assignment(n->kids[0], std::move(*place), n->text == "++" ? "+=" : "-=", one, n->where);
    if (is_prefix) return e;
    return bit_field(arithmetic(n->text == "++" ? ir::op::subtract : ir::op::add, std::move(e), one, f.t, n->where), 0,
                     f.bit_size, f.t);
  }
  const auto implicit = integer_type("int64_t", 8, true);
  auto target = lvalue(n->kids[0], n->text, &implicit);
  if (!target.t.is_integer()) fail("D_OP_SCALAR", op_message(n->text, "requires operand of scalar type"), n->where);
  if (const auto step = pointer_step(target.t)) {
    // p++ moves p by one object: p += sizeof (*p), and the value before, as C's postfix gives it.
    if (*step == 0) fail("D_OP_VFPTR", op_message(n->text, "requires an operand of known size"), n->where);
    const auto op = n->text == "++" ? ir::op::add : ir::op::subtract;
    const auto t = target.t;
    auto e = arithmetic(op, std::move(target), cast_to(sized(*step, n->where), t), t, n->where);
    e.kind = kind_t::assign;  // target op= step (a variable is no constant: never folded)
    if (is_prefix) return e;
    const auto back = op == ir::op::add ? ir::op::subtract : ir::op::add;
    return arithmetic(back, std::move(e), cast_to(sized(*step, n->where), t), t, n->where);
  }
  expr e;
  e.kind = kind_t::increment;
  e.operation = n->text == "++" ? ir::op::increment : ir::op::decrement;
  e.value = is_prefix;
  e.t = target.t;
  e.where = n->where;
  e.kids.push_back(std::move(target));
  return e;
}

expr checker::assign(const ast::node_ptr& n) {
  const auto& op = n->text;
  if (n->kids[0]->kind == ast::node_kind::aggregation || (n->kids[0]->kind == ast::node_kind::index && n->kids[0]->kids[0]->kind == ast::node_kind::aggregation))
    fail("D_AGG_FUNC", "@" + aggregation_name(aggregation_node(n->kids[0])->text) + " must be assigned the result of an aggregating function", n->where);
  // A compound assignment reads its target first: one never assigned is refused before the value.
  const auto& to = n->kids[0];
  if (op != "=" && to->kind == ast::node_kind::identifier && !globals_.contains(to->text) && !is_builtin_name(to->text))
    fail("D_VAR_UNDEF", to->text + " has not yet been declared or assigned", to->where);
  // A whole struct or union is assigned to one of its type; arrays are not assigned, as in C.
  // (An array stays one until the target is known: `a = b` of two is D_OP_ARRFUN.)
  auto v = object(n->kids[1]);
  const bool whole = v.t.kind == type::category::record;
  const bool array = v.t.kind == type::category::array && !holds_chars(v.t, n->kids[1]->where);
  if (!whole && !array) v = value_of(std::move(v), n->kids[1]->where);
  if (v.t.is_void()) fail("D_OP_VOID", "operator " + op + " cannot be applied to a void expression", n->kids[1]->where);
  if (auto place = bit_field_place(to)) return bit_field_assignment(to, std::move(*place), op, std::move(v), n->where);
  auto target = lvalue(n->kids[0], op, &v.t);
  if (target.t.kind == type::category::array)
    fail("D_OP_ARRFUN", "operator " + op + " may not be applied to operand of type \"" + target.t.name + "\"", n->where);
  if (const auto to = array ? pointed_to(target.t) : std::nullopt) {  // p = a: the array's address, as in C
    const auto element = types_.element(v.t.id);
    if (!to->is_void() && (!element || element->name != to->name)) incompatible_operands(target.t.name, op, v.t.name, n->where);
    v.t = target.t;
  } else if (array) {
    v = value_of(std::move(v), n->kids[1]->where);
  }
  if (whole || target.t.kind == type::category::record) return whole_assignment(n, std::move(target), std::move(v));
  if (target.kind == kind_t::memory && target.t.is_string() && v.t.is_string() && op == "=") {
    const auto bytes = target.t.size;
    return string_store(std::move(target), std::move(v), bytes);
  }
  // A variable holds scratch memory's address or another's, known when the program is checked.
  if (const auto& from = n->kids[1]; target.kind == kind_t::variable && from->kind == ast::node_kind::conditional &&
                                     holds_scratch(from->kids[1]) != holds_scratch(from->kids[2]))
    fail("D_ALLOCA_INCOMPAT", "ternary conditional with alloca and non-alloca branches cannot be assigned to a variable", n->where);
  if (target.kind == kind_t::variable && target.kids.empty() && op == "=" && holds_scratch(n->kids[1]))
    scratch_variables_.insert(target.index);
  if (op == "=") v = null_as_string(std::move(v), target.t);
  if (const auto to = pointed_to(target.t); op == "=" && v.t.is_string() && to && to->is_integer() && to->size == 1)
    v = string_address(std::move(v), target.t);  // char *p = s
  const bool floats = target.t.is_floating() || v.t.is_floating();
  // D assigns no float, not even to a float (dtrace-utils' dt_node_is_argcompat takes none).
  // A pointer and an integer meet only through a cast, but for a NULL (constant 0) pointer, as
  // dtrace-utils' dt_node_is_ptrcompat() takes them.
  const bool null = v.kind == kind_t::constant && v.value == 0;
  const bool to_pointer = pointed_to(target.t).has_value();
  const bool pointer_mix = op == "=" && to_pointer != pointed_to(v.t).has_value() && !(to_pointer && null);
  if (target.t.is_string() != v.t.is_string() || (floats && op == "=") || pointer_mix)
    incompatible_operands(target.t.name, op, v.t.name, n->where);
  if (floats) {
    if (op == "+=" || op == "-=")
      fail("D_OP_VFPTR", op_message(op, "requires left-hand scalar operand of known size"), n->where);
    const bool integral_only = op != "*=" && op != "/=";
    fail(integral_only ? "D_OP_INT" : "D_OP_ARITH",
         op_message(op, integral_only ? "requires operands of integral type" : "requires operands of arithmetic type"), n->where);
  }
  if (op != "=" && !target.t.is_integer())
    fail("D_OP_ARITH", op_message(op, "requires operands of arithmetic type"), n->where);
  const auto target_step = pointer_step(target.t);
  if (op != "=" && (target_step || pointer_step(v.t))) {
    const bool additive = op == "+=" || op == "-=";
    if (!additive) {
      const bool integral_only = op != "*=" && op != "/=";
      fail(integral_only ? "D_OP_INT" : "D_OP_ARITH",
           op_message(op, integral_only ? "requires operands of integral type" : "requires operands of arithmetic type"), n->where);
    }
    if (!target_step || *target_step == 0)
      fail("D_OP_VFPTR", op_message(op, "requires left-hand scalar operand of known size"), n->where);
    if (pointer_step(v.t))
      incompatible_operands(target.t.name, op, v.t.name, n->where);
    v = scaled(std::move(v), *target_step, n->where);
  }
  if ((op == "/=" || op == "%=") && v.kind == kind_t::constant && v.value == 0)
    fail("D_DIV_ZERO", "expression contains division by zero", n->where);
  expr e;
  e.kind = kind_t::assign;
  e.operation = op == "=" ? ir::op::assign : *ir::op_spelled(std::string_view(op).substr(0, op.size() - 1), ir::first_binary, ir::last_binary);
  e.t = target.t;
  e.where = n->where;
  if (target.t.is_integer()) v = cast_to(std::move(v), target.t);
  e.kids.push_back(std::move(target));
  e.kids.push_back(std::move(v));
  return e;
}

// target = v of a struct or union: v's bytes copied into a variable of the same type, or into
// memory (`*p = rec`, `rec.in = other.in`: where a store may go, the engine says) (DTrace's
// D_OP_INCOMPAT otherwise); an associative array's element or a thread's variable assigned 0 is
// deleted, as DTrace deletes a dynamic variable stored zero.
expr checker::whole_assignment(const ast::node_ptr& n, expr target, expr v) {
  const auto& op = n->text;
  if (op != "=") fail("D_OP_ARITH", op_message(op, "requires operands of arithmetic type"), n->where);
  const bool dynamic = target.kind == kind_t::variable &&
                       (!target.kids.empty() || result_.program.variables[target.index].where == ir::scope::thread);
  const bool deletes = dynamic && v.kind == kind_t::constant && v.t.is_integer() && v.value == 0;
  if (target.t != v.t && !deletes) incompatible_operands(target.t.name, op, v.t.name, n->where);
  expr e;
  e.kind = kind_t::assign;
  e.operation = ir::op::assign;
  e.t = target.t;
  e.where = n->where;
  e.kids.push_back(std::move(target));
  e.kids.push_back(std::move(v));
  return e;
}

expr checker::binary(const ast::node_ptr& n) {
  const auto& op = n->text;
  for (const auto& k : n->kids)
    if (k->kind == ast::node_kind::aggregation || (k->kind == ast::node_kind::index && k->kids[0]->kind == ast::node_kind::aggregation)) {
      const auto& other = k == n->kids[0] ? n->kids[1] : n->kids[0];
      const std::string other_type = other->kind == ast::node_kind::aggregation ? "aggregation" : value(other).t.name;
      const std::string left = k == n->kids[0] ? "aggregation" : other_type;
      const std::string right = k == n->kids[0] ? other_type : "aggregation";
      incompatible_operands(left, op, right, n->where);
    }
  auto a = value(n->kids[0]);
  auto b = value(n->kids[1]);
  const auto operation = *ir::op_spelled(op, ir::first_binary, ir::last_binary);
  const bool logical = operation >= ir::op::logical_and;
  const bool comparison = operation >= ir::op::equal && !logical;
  expr e;
  e.kind = kind_t::binary;
  e.operation = operation;
  e.where = n->where;
  if (logical) {
    for (const auto* v : {&a, &b})
      if (!v->t.is_integer()) fail("D_OP_SCALAR", op_message(op, "requires operands of scalar type"), n->where);
    e.t = int_type();
  } else if (comparison) {
    a = null_as_string(std::move(a), b.t);
    b = null_as_string(std::move(b), a.t);
    const bool floats = a.t.is_floating() || b.t.is_floating();
    if (a.t.is_string() != b.t.is_string() || a.t.is_void() || b.t.is_void() || (floats && a.t != b.t))
      incompatible_operands(a.t.name, op, b.t.name, n->where);
    e.t = int_type();
    if (floats) {
      a = float_order(std::move(a));
      b = float_order(std::move(b));
    } else if (a.t.is_integer()) {
      const auto common = promote(a.t, b.t);
      a = cast_to(std::move(a), common);
      b = cast_to(std::move(b), common);
    }
  } else {
    const bool shift = operation == ir::op::shift_left || operation == ir::op::shift_right;
    const bool integral_only = operation >= ir::op::modulo;  // % & | ^ << >>, by the enum's order
    if ((a.t.is_floating() || b.t.is_floating()) && (operation == ir::op::add || operation == ir::op::subtract))
      incompatible_operands(a.t.name, op, b.t.name, n->where);
    // s + n, n + s: the string from its byte n on, as dtrace-utils adds to a string's address.
    if (operation == ir::op::add && a.t.is_string() != b.t.is_string() && (a.t.is_string() ? b : a).t.is_integer() &&
        !pointer_step((a.t.is_string() ? b : a).t)) {
      auto& text = a.t.is_string() ? a : b;
      auto& offset = a.t.is_string() ? b : a;
      const auto char_pointer = integer_type("char *", 8, false);
      auto address = pointer_arithmetic(ir::op::add, string_address(std::move(text), char_pointer), std::move(offset), op, n->where);
      return memory_string(std::move(address), n->where, false);
    }
    if (!a.t.is_integer() || !b.t.is_integer())
      fail(integral_only ? "D_OP_INT" : "D_OP_ARITH",
           op_message(op, integral_only ? "requires operands of integral type" : "requires operands of arithmetic type"), n->where);
    if (pointer_step(a.t) || pointer_step(b.t)) {
      if (operation != ir::op::add && operation != ir::op::subtract)
        fail(integral_only ? "D_OP_INT" : "D_OP_ARITH",
             op_message(op, integral_only ? "requires operands of integral type" : "requires operands of arithmetic type"), n->where);
      return pointer_arithmetic(operation, std::move(a), std::move(b), op, n->where);
    }
    if ((operation == ir::op::divide || operation == ir::op::modulo) && b.kind == kind_t::constant && b.value == 0)
      fail("D_DIV_ZERO", "expression contains division by zero", n->where);
    e.t = shift ? promote(a.t, a.t) : promote(a.t, b.t);
    if (!shift) {
      a = cast_to(std::move(a), e.t);
      b = cast_to(std::move(b), e.t);
    }
  }
  if (a.kind == kind_t::constant && b.kind == kind_t::constant)
    if (const auto folded = fold(operation, a.value, b.value, comparison ? promote(a.t, b.t) : e.t)) {
      expr c;
      c.kind = kind_t::constant;
      c.t = e.t;
      c.value = *folded;
      c.where = n->where;
      return c;
    }
  e.kids.push_back(std::move(a));
  e.kids.push_back(std::move(b));
  return e;
}

// The type a pointer points to: none for a value that is no pointer, void for a pointer to void
// or to a type D does not know. A pointer to one of D's own integer types ("int *", `&a->comm[0]`)
// knows its target by its name only.
std::optional<type> checker::pointed_to(const type& t) {
  if (!t.is_integer()) return std::nullopt;
  if (t.pointee != 0) return types_.resolve(t.pointee).value_or(void_type());
  if (t.name.empty() || t.name.back() != '*') return std::nullopt;
  return find_type(t.name.substr(0, t.name.size() - 1)).value_or(void_type());
}

// The size by which + and - scale an integer added to a pointer: 0 for a pointer to void.
std::optional<std::uint32_t> checker::pointer_step(const type& t) {
  const auto target = pointed_to(t);
  if (!target) return std::nullopt;
  return target->is_void() ? 0 : target->size;
}

// a op b of type t, folded when both are constants.
expr checker::arithmetic(ir::op op, expr a, expr b, const type& t, ast::span where) {
  expr e;
  const auto folded = a.kind == kind_t::constant && b.kind == kind_t::constant ? fold(op, a.value, b.value, t) : std::nullopt;
  if (folded) {
    e.kind = kind_t::constant;
    e.value = *folded;
  } else {
    e.kind = kind_t::binary;
    e.operation = op;
    e.kids.push_back(std::move(a));
    e.kids.push_back(std::move(b));
  }
  e.t = t;
  e.where = where;
  return e;
}

// count * step, a long: the bytes that count objects of step bytes take.
expr checker::scaled(expr count, std::uint32_t step, ast::span where) {
  const auto offset_type = integer_type("long", 8, true);
  count = cast_to(std::move(count), offset_type);
  if (step == 1) return count;
  return arithmetic(ir::op::multiply, std::move(count), cast_to(sized(step, where), offset_type), offset_type, where);
}

// p + n, n + p and p - n move p by n objects; p - q counts the objects between two pointers of
// one type (a ptrdiff_t), as C has them (libdtrace's dt_cook_op2 and dt_cg_ptrsize).
expr checker::pointer_arithmetic(ir::op op, expr a, expr b, const std::string& spelled, ast::span where) {
  const auto a_step = pointer_step(a.t), b_step = pointer_step(b.t);
  const auto incompatible = [&] {
    incompatible_operands(a.t.name, spelled, b.t.name, where);
  };
  if ((a_step && *a_step == 0) || (b_step && *b_step == 0)) incompatible();
  if (a_step && b_step) {
    if (op != ir::op::subtract || a.t.name != b.t.name) incompatible();
    const auto difference_type = integer_type("ptrdiff_t", 8, true);
    auto bytes = arithmetic(ir::op::subtract, cast_to(std::move(a), difference_type), cast_to(std::move(b), difference_type),
                            difference_type, where);
    if (*a_step == 1) return bytes;
    return arithmetic(ir::op::divide, std::move(bytes), cast_to(sized(*a_step, where), difference_type), difference_type, where);
  }
  if (b_step && op == ir::op::subtract) incompatible();  // n - p
  auto& pointer = a_step ? a : b;
  auto& count = a_step ? b : a;
  const auto t = pointer.t;
  auto offset = scaled(std::move(count), a_step ? *a_step : *b_step, where);
  return arithmetic(op, std::move(pointer), std::move(offset), t, where);
}

// D_OP_INCOMPAT, as DTrace words it: `operands have incompatible types: "int" = "float"`.
void checker::incompatible_operands(const std::string& left, std::string_view op, const std::string& right, ast::span where) {
  fail("D_OP_INCOMPAT", "operands have incompatible types: \"" + left + "\" " + std::string(op) + " \"" + right + "\"", where);
}

// A key of type `key` where a prototype (an array's or aggregation's first use) has `proto`, as
// dtrace-utils' dt_node_is_argcompat allows: strings for strings, integers of any size for
// integers, a float only for its own type.
bool checker::key_fits(const type& proto, const type& key) {
  if (proto.is_floating() || key.is_floating()) return proto == key;
  if (proto.kind == type::category::record || key.kind == type::category::record) return proto.id == key.id && proto.kind == key.kind;
  return proto.is_string() == key.is_string();
}

// A float as an int64_t that orders as the float does (IEEE 754's totalOrder: -0 below +0, NaNs
// beyond the infinities): its bits, sign-extended, with the bits below the sign flipped when the
// sign is set. So every engine compares floats with integer instructions, as the kernel must.
expr checker::float_order(expr f) {
  const auto where = f.where;
  const auto wide = integer_type("int64_t", 8, true);
  const auto constant = [&](std::uint64_t v) { return integer_constant(v, true, false, where); };
  const auto same_size = integer_type(f.t.size == 4 ? "int32_t" : "int64_t", f.t.size, true);
  auto bits = cast_to(cast_to(std::move(f), same_size), wide);
  auto sign = arithmetic(ir::op::shift_right, bits, constant(63), wide, where);  // all ones for a negative float
  const auto unsigned_wide = integer_type("uint64_t", 8, false);
  auto below_sign = arithmetic(ir::op::shift_right, cast_to(std::move(sign), unsigned_wide), constant(1), unsigned_wide, where);
  return arithmetic(ir::op::bit_xor, std::move(bits), cast_to(std::move(below_sign), wide), wide, where);
}

expr checker::conditional(const ast::node_ptr& n) {
  auto c = value(n->kids[0]);
  if (!c.t.is_integer()) fail("D_OP_SCALAR", "operator ?: expression must be of scalar type", n->kids[0]->where);
  auto a = value(n->kids[1]);
  auto b = value(n->kids[2]);
  if ((a.kind == kind_t::call && a.t.is_void()) || (b.kind == kind_t::call && b.t.is_void()))
    fail("D_OP_ACT", "action cannot be used in a conditional context", n->where);
  if (a.t.is_string() != b.t.is_string() || a.t.is_void() || b.t.is_void() ||
      ((a.t.is_floating() || b.t.is_floating()) && a.t != b.t))
    fail("D_OP_INCOMPAT", "operator ?: operands must have compatible types", n->where);
  expr e;
  e.kind = kind_t::conditional;
  e.t = a.t.is_string() || a.t.is_floating() ? a.t : promote(a.t, b.t);
  e.where = n->where;
  if (e.t.is_integer()) {
    a = cast_to(std::move(a), e.t);
    b = cast_to(std::move(b), e.t);
  }
  if (c.kind == kind_t::constant) return c.value ? a : b;
  e.kids = {std::move(c), std::move(a), std::move(b)};
  return e;
}

}  // namespace dtpp::d::detail
