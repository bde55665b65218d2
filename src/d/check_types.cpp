// The D checker: type names, the usual arithmetic conversions, declarations and casts, and the
// kernel's types (structs, unions, pointers and arrays from the compile's type_table).

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "checker.hpp"

namespace dtpp::d::detail {

std::optional<type> named_type(std::string name, std::uint32_t strsize) {
  // Normalize blanks: "unsigned  long" -> "unsigned long"; "char *" stays a pointer (8 bytes).
  std::string clean;
  for (char c : name) {
    if (c == '\t' || c == '\n') c = ' ';  // the source's blanks between a member's type and name
    if (c != ' ' || (!clean.empty() && clean.back() != ' ')) clean += c;
  }
  while (!clean.empty() && clean.back() == ' ') clean.pop_back();
  if (!clean.empty() && clean.back() == '*') return integer_type(clean, 8, false);
  // C's `short int`, `unsigned long long int`: DTrace names them without the int.
  if (clean.ends_with(" int") && (clean.find("short") != std::string::npos || clean.find("long") != std::string::npos))
    clean.resize(clean.size() - 4);
  struct entry { const char* name; std::uint32_t size; bool is_signed; };
  static const entry table[] = {
      {"char", 1, true}, {"signed char", 1, true}, {"unsigned char", 1, false},
      {"short", 2, true}, {"signed short", 2, true}, {"unsigned short", 2, false},
      {"int", 4, true}, {"signed int", 4, true}, {"signed", 4, true}, {"unsigned", 4, false},
      {"unsigned int", 4, false}, {"long", 8, true}, {"signed long", 8, true},
      {"unsigned long", 8, false}, {"long long", 8, true}, {"signed long long", 8, true},
      {"unsigned long long", 8, false}, {"int8_t", 1, true}, {"int16_t", 2, true},
      {"int32_t", 4, true}, {"int64_t", 8, true}, {"uint8_t", 1, false}, {"uint16_t", 2, false},
      {"uint32_t", 4, false}, {"uint64_t", 8, false}, {"intptr_t", 8, true},
      {"uintptr_t", 8, false}, {"size_t", 8, false}, {"ssize_t", 8, true}, {"ptrdiff_t", 8, true}, {"pid_t", 4, true},
      {"id_t", 4, true}, {"uid_t", 4, false}, {"gid_t", 4, false}, {"processorid_t", 4, true},
      {"zoneid_t", 4, true}, {"boolean_t", 4, true}, {"uchar_t", 1, false},
      {"ushort_t", 2, false}, {"uint_t", 4, false}, {"ulong_t", 8, false},
      {"u_longlong_t", 8, false}, {"longlong_t", 8, true}, {"off_t", 8, true},
      {"caddr_t", 8, false}, {"hrtime_t", 8, true},
      // The Linux kernel's own short names (linux/types.h), which Linux DTrace knows from its BTF.
      {"ushort", 2, false}, {"uint", 4, false}, {"ulong", 8, false},
      {"dev_t", 4, false},  // the kernel's dev_t: major in bits 20-31, minor in bits 0-19
      {"loff_t", 8, true},  // a file offset (fileinfo_t's fi_offset, as in dtrace-utils' io.d)
      {"ipaddr_t", 4, false}};  // an IPv4 address in network order (dtrace-utils' ip.d: __be32)
  for (const auto& e : table)
    if (clean == e.name) return integer_type(clean, e.size, e.is_signed);
  if (clean == "float" || clean == "double") return type{type::category::floating, clean == "float" ? 4u : 8u, false, clean};
  if (clean == "string") return type{type::category::string, strsize, false, "string"};
  if (clean == "void") return void_type();
  return std::nullopt;
}

// DTrace's conversions, not C's: the result has the larger operand's size and is unsigned when an
// operand of that size is, with no promotion to int first (dt_type_promote ranks by bits, then
// signedness), so that `(unsigned char)254 + (char)3` is an unsigned char, 1.
type promote(const type& a, const type& b) {
  const auto size = std::max(a.size, b.size);
  const bool is_unsigned = (a.size == size && !a.is_signed) || (b.size == size && !b.is_signed);
  if (size == 1) return is_unsigned ? integer_type("unsigned char", 1, false) : integer_type("char", 1, true);
  if (size == 2) return is_unsigned ? integer_type("unsigned short", 2, false) : integer_type("short", 2, true);
  if (size <= 4) return is_unsigned ? integer_type("unsigned int", 4, false) : int_type();
  return is_unsigned ? integer_type("unsigned long", 8, false) : integer_type("long", 8, true);
}

namespace {

// "struct  task_struct **" -> {"struct task_struct", 2}: the name with single blanks, and its stars.
std::pair<std::string, int> split_stars(const std::string& name) {
  std::string clean;
  int stars = 0;
  for (char c : name) {
    if (c == '\t' || c == '\n') c = ' ';
    if (c == '*') ++stars;
    else if (c != ' ' || (!clean.empty() && clean.back() != ' ')) clean += c;
  }
  while (!clean.empty() && clean.back() == ' ') clean.pop_back();
  return {clean, stars};
}

bool names_struct_or_union(const std::string& name) {
  return name.rfind("struct ", 0) == 0 || name.rfind("union ", 0) == 0;
}

// A pointer to a type from a type_table: an 8-byte address that knows what it points to.
type pointer_to(const type& t) {
  type p = integer_type(t.name + " *", 8, false);
  p.pointee = t.id;
  return p;
}

}  // namespace

// The type a cast, sizeof or declaration names: one of D's own, else a struct, union or typedef
// of the type table's (a struct or union with one '*': a pointer to it).
std::optional<type> checker::find_type(const std::string& name) {
  // `struct D`s`: the program's own type only; `struct vmlinux`s` (a module's scope): as unscoped.
  if (const auto tick = name.find('`'); tick != std::string::npos) {
    const auto space = name.rfind(' ', tick);
    const auto scope = name.substr(space + 1, tick - space - 1);
    const auto unscoped = name.substr(0, space + 1) + name.substr(tick + 1);
    if (scope == "D" && !types_.declares(split_stars(unscoped).first)) return std::nullopt;
    return find_type(unscoped);
  }
  const auto [base, stars] = split_stars(name);
  const auto strsize = options_.string_bytes();
  const bool declared = names_struct_or_union(base) || types_.declares(base);
  if (!declared && named_type(base, strsize)) return named_type(name, strsize);  // D's own: int, char *, ipaddr_t
  const auto t = stars <= 1 ? types_.find(base) : std::nullopt;  // a declared one, or the kernel's (rwlock_t)
  if (t && stars == 0) return t;
  if (t && t->is_object() && t->id != 0) return pointer_to(*t);
  // Any other pointer to a name D does not declare is an address, as D's own pointers are;
  // pointers to a declared typedef's integers are not taken yet.
  return declared || stars == 0 ? std::nullopt : named_type(name, strsize);
}

// The type of a declaration, member, typedef, cast or sizeof: the one it names (its words
// checked as DTrace checks them), or the anonymous struct, union or enum it writes (declared when
// first met) with the stars after it.
std::optional<type> checker::declared_type(const std::string& name, const ast::anonymous_record& record,
                                           ast::span where) {
  if (!record) {
    check_type_words(name, where);
    return find_type(name);
  }
  auto [it, first] = anonymous_.try_emplace(record.get());
  if (first) it->second = record->keyword == "enum" ? declare_enum(*record) : declare_struct(*record);  // on an error, stays none
  if (!it->second) throw failed{};                  // its error is reported, at its first name
  const auto stars = split_stars(name).second;
  if (stars > 1) return std::nullopt;
  return stars == 0 ? it->second : pointer_to(*it->second);
}

void checker::declare(const ast::declaration& d) {
  if (d.scope.find(' ') != std::string::npos) {  // `self this int x;`: the grammar takes both words
    error("D_DECL_CLASS", "only one storage class may be given in a declaration: " + d.scope, d.where);
    return;
  }
  if (d.scope == "register" || d.scope == "static" || d.scope == "auto")
    return error("D_DECL_BADCLASS", "specified storage class not appropriate in D", d.where);
  if (d.name.empty()) return error("D_DECL_USELESS", "useless declaration", d.where);
  if (d.name.find('`') != std::string::npos)
    return error("D_DECL_SCOPE", "D scoping operator may not be used in a declaration name (" + d.name + ")", d.where);
  // `extern int x;` names a kernel symbol, which D reads as `x, as DTrace does; this kernel's
  // kallsyms has no data symbols, so a use says what a backquote does. Its type is the kernel's
  // to know.
  if (d.scope == "extern") {
    external_symbols_.insert(d.name);
    return;
  }
  if (split_stars(d.type) == std::pair<std::string, int>{"long double", 0}) {  // 16 bytes: no engine's values hold it
    error("D_UNKNOWN", "variables of type long double are not supported yet: " + d.name, d.where);
    return;
  }
  std::optional<type> t;
  try {
    t = declared_type(d.type, d.record, d.where);
  } catch (const failed&) {
    return;
  }
  if (d.variadic_keys) {
    error("D_DECL_PROTO_VARARGS", "array prototype may not use a variable-length argument list", d.where);
    return;
  }
  // A function's prototype (from a C header) names no variable: D cannot call it.
  if (t && d.is_function) {
    check_prototype(d);
    return;
  }
  if (t && t->is_void() && !d.dimensions.empty()) {
    error("D_DECL_VOIDOBJ", "cannot declare array of void", d.where);
    return;
  }
  if (!t || t->is_void()) {
    error("D_DECL_VOIDOBJ", (d.is_inline ? "cannot declare void inline: " : "cannot have void object: ") + d.name, d.where);
    return;
  }
  if (!d.dimensions.empty()) {
    if (d.is_inline) {
      error("D_DECL_ARRNULL", "inline declaration cannot be an array: " + d.name, d.where);
      return;
    }
    t = array_of(*t, d);
    if (!t) return;
  }
  if (d.value && !d.is_inline) {  // D's grammar has initializers for inlines only
    error("D_SYNTAX", "syntax error near \"=\"", d.value->where);
    return;
  }
  if (d.is_inline) {
    if (!d.value) {  // the grammar wants `= expression` before the ';'
      error("D_SYNTAX", "syntax error near \";\"", {d.where.end - 1, d.where.end});
      return;
    }
    if (!d.scope.empty()) {
      error("D_DECL_BADCLASS", "specified storage class not appropriate for inline declaration", d.where);
      return;
    }
    if (inlines_.count(d.name) || globals_.count(d.name) || names_function(d.name)) {
      // What the name was before, as DTrace says it.
      const auto previous = inlines_.count(d.name) ? "scalar inline" : globals_.count(d.name) ? "scalar variable" : "function ";
      error("D_DECL_IDRED", "identifier redefined: " + d.name + "\n\t current: inline definition\n\tprevious: " + previous, d.where);
      return;
    }
    if (!d.keys.empty()) {  // an inline array: checked where it is used, its parameters bound
      std::vector<std::pair<std::string, type>> keys;
      for (std::size_t i = 0; i < d.keys.size(); ++i) {
        const auto kt = find_type(d.keys[i]);
        if (!kt || kt->is_void() || kt->is_object()) {
          error("D_DECL_ARRSUB", "positive integral constant expression or tuple signature expected as array declaration subscript", d.where);
          return;
        }
        keys.emplace_back(d.key_names[i], *kt);
      }
      inline_keys_.emplace(d.name, std::move(keys));
      inlines_.emplace(d.name, std::make_pair(*t, d.value));
      return;
    }
    // Checked here once, so that an error in it is reported at the declaration; an xlate's
    // members are checked where they are used (`curpsinfo->pr_pid`).
    if (xlate_of(d.value) || in_library(d.where)) {
      inlines_.emplace(d.name, std::make_pair(*t, d.value));
      return;
    }
    try {
      auto v = object(d.value);
      const bool records = t->kind == type::category::record || v.t.kind == type::category::record;
      if (!records) v = value_of(std::move(v), d.value->where);
      if (records ? v.t.id != t->id
                  : v.t.is_string() != t->is_string() || v.t.is_void() || v.t.is_floating() || t->is_floating())
        fail("D_OP_INCOMPAT", "inline " + d.name + " definition uses incompatible types: \"" + t->name + "\" = \"" +
                                  v.t.name + "\"", d.value->where);
    } catch (const failed&) {
      return;
    }
    inlines_.emplace(d.name, std::make_pair(*t, d.value));
    return;
  }
  // A struct, union or array variable holds its bytes (global, self->, this->, an associative
  // array's element); arrays are not an associative array's value yet.
  if (t->kind == type::category::array && !d.keys.empty()) {
    error("D_UNKNOWN", "variables of type " + t->name + " are not supported yet: " + d.name, d.where);
    return;
  }
  std::vector<type> keys;
  for (const auto& k : d.keys) {
    const auto kt = find_type(k);
    if (kt && kt->is_void()) {
      error("D_DECL_PROTO_TYPE", "array prototype may not use parameter of type void: (anonymous), parameter #" +
                                     std::to_string(keys.size() + 1), d.where);
      return;
    }
    if (!kt || kt->is_object()) {
      error("D_DECL_ARRSUB", "positive integral constant expression or tuple signature expected as array declaration subscript", d.where);
      return;
    }
    keys.push_back(*kt);
  }
  if (d.scope == "this" && !keys.empty()) {
    error("D_DECL_LOCASSC", "associative arrays may not be declared as local variables: " + d.name, d.where);
    return;
  }
  auto& table = d.scope == "self" ? thread_locals_ : d.scope == "this" ? clause_locals_ : globals_;
  if (table.count(d.name)) {
    error("D_DECL_IDRED", "identifier redeclared: " + d.name, d.where);
    return;
  }
  const auto scope = d.scope == "self" ? ir::scope::thread : d.scope == "this" ? ir::scope::clause : ir::scope::global;
  const auto prefix = d.scope.empty() ? std::string() : d.scope + "->";
  table.emplace(d.name, new_variable(prefix + d.name, scope, *t, keys));
}

// Whether `name` is one of D's subroutines or actions.
bool checker::names_function(const std::string& name) {
  for (auto s = 0; s < static_cast<int>(ir::subroutine::action); ++s)
    if (ir::name(static_cast<ir::subroutine>(s)) == name) return true;
  return find_action(name) != nullptr;
}

// A function's prototype, which declares nothing D can use, checked as DTrace checks one: no
// storage class, dynamic type or named void among its parameters, and a void alone.
void checker::check_prototype(const ast::declaration& d) {
  std::size_t voids = 0;
  for (std::size_t i = 0; i < d.parameters.size(); ++i) {
    const auto& p = d.parameters[i];
    if (!p.storage.empty())
      return error("D_DECL_PARMCLASS", "inappropriate storage class for function or associative array parameter", d.where);
    if (p.dynamic)
      return error("D_DECL_PROTO_TYPE", "function prototype may not use parameter of type dynamic variable: " +
                                            (p.name.empty() ? std::string("(anonymous)") : p.name) + ", parameter #" +
                                            std::to_string(i + 1), d.where);
    const bool is_void = split_stars(p.type) == std::pair<std::string, int>{"void", 0};
    if (is_void && !p.name.empty()) return error("D_DECL_PROTO_NAME", "void parameter may not have a name: " + p.name, d.where);
    voids += is_void;
  }
  if (voids != 0 && d.parameters.size() > 1) error("D_DECL_PROTO_VOID", "void must be sole parameter", d.where);
}

// `type name[2][3]`: an array of 2 arrays of 3, with DTrace's errors for a dimension that is
// missing (D_DECL_ARRNULL), not positive (D_DECL_ARRSUB) or past 32 bits (D_DECL_ARRBIG); none
// (after an error) otherwise.
std::optional<type> checker::array_of(type element, const ast::declaration& d) {
  if (element.is_string() || element.is_stack()) {
    error("D_UNKNOWN", "arrays of " + element.name + " are not supported yet: " + d.name, d.where);
    return std::nullopt;
  }
  for (auto it = d.dimensions.rbegin(); it != d.dimensions.rend(); ++it) {
    if (it->empty()) {
      error("D_DECL_ARRNULL", "array declaration requires array dimension or tuple signature: " + d.name, d.where);
      return std::nullopt;
    }
    const auto count = (*it)[0] == '-' ? 0 : std::strtoull(it->c_str(), nullptr, 0);
    if (count == 0) {
      error("D_DECL_ARRSUB", "positive integral constant expression or tuple signature expected as array declaration subscript",
            d.where);
      return std::nullopt;
    }
    // Past 32 bits of dimension, as DTrace says, or of bytes, which no type's size holds.
    if (count > UINT32_MAX || count * element.size > UINT32_MAX) {
      error("D_DECL_ARRBIG", "array dimension too big", d.where);
      return std::nullopt;
    }
    element = types_.add_array(element, static_cast<std::uint32_t>(count));
  }
  return element;
}

expr checker::cast_to(expr e, const type& t) {
  // Same size and signedness (int and pid_t, say): nothing to convert.
  if (e.t == t || (e.t.is_integer() && t.is_integer() && e.t.size == t.size && e.t.is_signed == t.is_signed))
    return e;
  if (e.kind == kind_t::constant && t.is_integer()) {
    e.value = ir::fit(e.value, t);
    e.t = t;
    return e;
  }
  expr c;
  c.kind = kind_t::cast;
  c.t = t;
  c.where = e.where;
  c.kids.push_back(std::move(e));
  return c;
}

// `struct s *` of a struct or union neither the program nor the kernel defines: a pointer to a
// forward tag, as DTrace makes one for a cast or a translator's input; `->` through it is
// D_OP_INCOMPLETE until the program defines it.
std::optional<type> checker::forward_pointer(const std::string& name) {
  const auto [base, stars] = split_stars(name);
  if (stars != 1 || !names_struct_or_union(base) || base.find('`') != std::string::npos || find_type(base)) return std::nullopt;
  return pointer_to(types_.add_forward(base));
}

// sizeof(type) and sizeof(expression).
expr checker::size_of_operand(const ast::node_ptr& n) {
  if (n->kind == ast::node_kind::sizeof_type) {
    const auto t = declared_type(n->text, n->record, n->where);
    if (!t) fail("D_UNKNOWN", "failed to resolve type " + (n->record ? n->record->keyword + " " + n->text : n->text), n->where);
    return size_of(*t, n->where);
  }
  // sizeof(name) of a typedef's name (one declared, one of D's own such as ipaddr_t, or the
  // kernel's such as rwlock_t): the grammar cannot tell it from a variable's.
  if (const auto& k = n->kids[0]; k->kind == ast::node_kind::identifier && !globals_.contains(k->text))
    if (const auto t = find_type(k->text)) return size_of(*t, n->where);
  if (bit_field_place(n->kids[0])) fail("D_SIZEOF_BITFIELD", "cannot apply sizeof to a bit-field", n->where);
  // A string constant is its characters and NUL, as a char array in C: sizeof("hi") is 3.
  if (n->kids[0]->kind == ast::node_kind::string) return sized(object(n->kids[0]).text.size() + 1, n->where);
  return size_of(object(n->kids[0]).t, n->where);
}

// The words of a type name as DTrace's declaration parser takes them one by one: a second base
// type (`char int`) is D_DECL_COMBO; short or long with char, any of signed, unsigned, short,
// long with void, signed or unsigned with a float, long with neither integer nor float, are its
// D_DECL_*ATTR and *INT errors; words that name no type together (`short long`) are unknown.
void checker::check_type_words(const std::string& name, ast::span where) {
  if (name.find('`') != std::string::npos || names_struct_or_union(name) || name.rfind("enum ", 0) == 0) return;
  enum : unsigned { is_signed = 1, is_unsigned = 2, is_short = 4, is_long = 8, is_long_long = 16 };
  static const std::set<std::string, std::less<>> integers = {"char", "int"}, floats = {"float", "double"};
  unsigned attributes = 0;
  std::string base;
  std::istringstream words(split_stars(name).first);
  for (std::string w; words >> w;) {
    if (w == "signed") attributes |= is_signed;
    else if (w == "unsigned") attributes |= is_unsigned;
    else if (w == "short") attributes |= is_short;
    else if (w == "long") attributes = (attributes & is_long) ? (attributes & ~is_long) | is_long_long : attributes | is_long;
    else if (!base.empty()) fail("D_DECL_COMBO", "invalid type combination", where);
    else base = w;
    if (base.empty()) continue;
    const auto named = named_type(base, 0);
    const bool integer = integers.contains(base) || (named && named->is_integer());
    if (base == "char" && (attributes & (is_short | is_long | is_long_long)))
      fail("D_DECL_CHARATTR", "invalid type declaration: short and long may not be used with char type", where);
    if (base == "void" && attributes)
      fail("D_DECL_VOIDATTR", "invalid type declaration: attributes may not be used with void type", where);
    if (!integer && (attributes & (is_signed | is_unsigned)))
      fail("D_DECL_SIGNINT", "invalid type declaration: signed and unsigned may only be used with integer type", where);
    if (!integer && !floats.contains(base) && (attributes & (is_long | is_long_long)))
      fail("D_DECL_LONGINT", "invalid type declaration: long and long long may only be used with integer or floating-point type", where);
  }
  // The name DTrace looks up: the attributes in its order, then the base unless short or long
  // stands for it.
  std::string composed;
  for (const auto& [bit, word] : {std::pair{is_signed, "signed "}, {is_unsigned, "unsigned "}, {is_short, "short "},
                                   {is_long, "long "}, {is_long_long, "long long "}})
    if (attributes & bit) composed += word;
  const int sizes = !!(attributes & is_short) + !!(attributes & is_long) + !!(attributes & is_long_long);
  if (sizes > 1 || (attributes & is_signed && attributes & is_unsigned))
    fail("D_UNKNOWN", "failed to resolve type " + composed + ": Unknown type name", where);
}

expr checker::cast(const ast::node_ptr& n) {
  auto t = declared_type(n->text, n->record, n->where);
  if (!t && !n->record) t = forward_pointer(n->text);
  // xlate<T *>(e) points to data only the translator makes: no cast takes it (curcpu and the
  // library's other inlines of translated pointers are built-in variables to DTrace, and may be
  // cast). DTrace reduces the cast once it has the token after it, and names that line.
  if (const auto& x = n->kids[0]; x->kind == ast::node_kind::xlate && split_stars(x->text).second > 0) {
    const auto next = std::string_view(source_.text()).find_first_not_of(" \t\r\n", n->where.end);
    const auto where = next == std::string_view::npos
                           ? n->where
                           : ast::span{static_cast<std::uint32_t>(next), static_cast<std::uint32_t>(next + 1)};
    fail("D_CAST_INVAL",
         "invalid cast expression: \"pointer to translated data\" to \"" + (t ? t->name : n->text) + "\"", where);
  }
  auto v = object(n->kids[0]);
  // (int *)a of an array, (struct task_struct *)arg0: the address, retyped
  if (t && pointed_to(*t) && (v.t.kind == type::category::array || v.t.is_integer())) {
    if (v.t.kind == type::category::array) v = array_address(std::move(v), *t);
    v.t = *t;
    v.where = n->where;
    return v;
  }
  // (struct s)v of a struct or union of that very type: itself, as translators write their input.
  if (t && t->kind == type::category::record && v.t.kind == type::category::record && t->id == v.t.id) {
    v.where = n->where;
    return v;
  }
  v = value_of(std::move(v), n->kids[0]->where);
  if (t && t->is_void() && !v.t.is_void()) {  // (void)x: evaluated, its value dropped, as in C
    v.t = void_type();
    return v;
  }
  // (string)p: the string in memory at a pointer (alloca()'s, copyin()'s), as DTrace reads it;
  // (char *)s: the address of a string's bytes.
  if (t && t->is_string() && pointed_to(v.t)) return memory_string(std::move(v), n->where, holds_scratch(n->kids[0]));
  if (t && pointed_to(*t) && v.t.is_string()) {
    auto e = string_address(std::move(v), *t);
    e.where = n->where;
    return e;
  }
  // A float casts only to its own type (and to void, above): D converts no float to anything.
  const bool floats_differ = (t && t->is_floating()) || v.t.is_floating() ? !t || *t != v.t : false;
  if (!t || t->is_void() || t->is_object() || t->is_string() != v.t.is_string() || v.t.is_void() || floats_differ)
    fail("D_CAST_INVAL", "invalid cast expression: \"" + v.t.name + "\" to \"" + (n->record && t ? t->name : n->text) + "\"", n->where);
  if (t->is_string()) return v;
  auto e = cast_to(std::move(v), *t);
  if (pointed_to(e.t)) e.t = *t;  // (uintptr_t)curthread is an integer, no more a pointer
  e.where = n->where;
  return e;
}

ir::type_table& checker::kernel_types(const std::string& what, ast::span where) {
  if (!options_.types)
    fail("D_TYPE_ERR", what + " needs the kernel's types (BTF), which only the kernel engine has", where);
  return types_;
}

// curthread: the current thread's struct task_struct, as bpf_get_current_task() gives it.
expr checker::curthread(ast::span where) {
  const auto task = kernel_types("curthread", where).find("struct task_struct");
  if (!task) fail("D_TYPE_ERR", "curthread needs struct task_struct, which the kernel's BTF lacks", where);
  expr e;
  e.kind = kind_t::builtin;
  e.index = static_cast<std::uint32_t>(ir::builtin::curthread);
  e.t = pointer_to(*task);
  e.text = "curthread";
  e.where = where;
  return e;
}

// p->m and s.m on the kernel's structs and unions and the program's, a bit-field's value read
// from the bytes that hold it.
expr checker::object_member(const ast::node_ptr& n) {
  if (const auto* x = xlate_of(n->kids[0])) return translated_member(n, x->text, object(x->kids[0]), x->where);
  if (const auto i = translated_argument(n->kids[0])) {
    const auto& a = clause_arguments()[static_cast<std::size_t>(*i)];
    return translated_member(n, a.translated, native_argument(*i, a, n->kids[0]->where), n->kids[0]->where);
  }
  auto place = place_of_member(n);
  if (!place.field) return std::move(place.memory);
  const auto& f = *place.field;
  return bit_field(std::move(place.memory), f.bit_offset % 8, f.bit_size, f.t);
}

// Where p->m or s.m lies, with DTrace's errors (D_OP_PTR, D_OP_SOU, D_TYPE_MEMBER). A member
// within a member is one offset from the same address. A bit-field's place is the bytes that
// hold it, as an unsigned integer of 1, 2, 4 or 8 bytes.
checker::member_place checker::place_of_member(const ast::node_ptr& n) {
  auto base = object(n->kids[0]);
  const bool arrow = n->text == "->";
  if (const auto to = pointed_to(base.t); arrow && to && !base.t.is_pointer())  // `int *p; p->a`
    fail("D_OP_SOU", "operator -> cannot be applied to pointer to type \"" + to->name +
                         "\"; must be applied to a struct or union pointer", n->where);
  if (arrow && !base.t.is_pointer())
    fail("D_OP_PTR", "operator -> must be applied to a pointer", n->where);
  type record = base.t;
  if (arrow) {
    const auto pointee = types_.resolve(base.t.pointee);
    if (!pointee) fail("D_TYPE_ERR", "failed to resolve the type " + base.t.name + " points to", n->where);
    record = *pointee;
    if (record.kind != type::category::record)
      fail("D_OP_SOU", "operator -> cannot be applied to pointer to type \"" + record.name +
                           "\"; must be applied to a struct or union pointer", n->where);
  } else if (record.kind != type::category::record) {
    fail("D_OP_SOU", "operator . cannot be applied to type \"" + record.name + "\"; must be applied to a struct or union",
         n->where);
  }
  if (record.size == 0)
    fail("D_OP_INCOMPLETE", "operator " + n->text + " cannot be applied to a forward declaration: no " + record.name +
                                " definition is available", n->where);
  const auto m = types_.member(record.id, n->name);
  if (!m) fail("D_TYPE_MEMBER", n->name + " is not a member of " + record.name, n->where);
  if (m->bit_size != 0 && (!m->t.is_integer() || m->bit_offset % 8 + m->bit_size > 64))
    fail("D_UNKNOWN", "bit-field member " + n->name + " of " + std::to_string(m->bit_size) + " bits is not supported yet",
         n->where);
  member_place place;
  auto& e = place.memory;
  e.kind = kind_t::memory;
  e.t = m->t;
  e.value = m->bit_offset / 8;
  if (m->bit_size != 0) {
    e.t = unsigned_type(ir::bit_field_bytes(m->bit_offset % 8 + m->bit_size));
    place.field = *m;
  }
  if (!arrow && base.kind == kind_t::memory) {  // s.m where s is itself a member: one offset
    e.value += base.value;
    e.kids = std::move(base.kids);
  } else {
    e.kids.push_back(std::move(base));
  }
  e.where = n->where;
  return place;
}

// The place of s.m or p->m if `n` names a bit-field (not self->, this->, args->, nor a
// translator's member).
std::optional<checker::member_place> checker::bit_field_place(const ast::node_ptr& n) {
  if (n->kind != ast::node_kind::member) return std::nullopt;
  const auto& base = n->kids[0];
  if (n->text == "->" && base->kind == ast::node_kind::identifier &&
      (base->text == "self" || base->text == "this" || base->text == "args"))
    return std::nullopt;
  if (xlate_of(base) || translated_argument(base)) return std::nullopt;
  auto place = place_of_member(n);
  if (!place.field) return std::nullopt;
  return place;
}

// A bit-field's value from the bytes that hold it (little-endian: the field starts `shift` bits
// up): shifted to the top of 64 bits, then down again, arithmetically for a signed field.
expr checker::bit_field(expr bytes, std::uint32_t shift, std::uint32_t bits, const type& t) {
  const auto where = bytes.where;
  const type wide = integer_type(t.is_signed ? "int64_t" : "uint64_t", 8, t.is_signed);
  auto top = arithmetic(ir::op::shift_left, cast_to(std::move(bytes), wide), sized(64 - shift - bits, where), wide, where);
  return cast_to(arithmetic(ir::op::shift_right, std::move(top), sized(64 - bits, where), wide, where), t);
}

// s.m = v of a bit-field (or s.m op= v): the bytes that hold it read, its bits replaced by v's
// low ones, and written back, as DTrace stores one; the expression's value is the field's new one.
expr checker::bit_field_assignment(const ast::node_ptr& to, member_place place, const std::string& op, expr v,
                                   ast::span where) {
  if (!writable(to->kids[0])) fail("D_OP_WRITE", op_message(op, "can only be applied to a writable variable"), where);
  const auto f = *place.field;
  if (!v.t.is_integer() || pointed_to(v.t)) incompatible_operands(f.t.name, op, v.t.name, where);
  const auto shift = f.bit_offset % 8;
  if (op != "=") {
    const auto operation = *ir::op_spelled(std::string_view(op).substr(0, op.size() - 1), ir::first_binary, ir::last_binary);
    v = arithmetic(operation, bit_field(place.memory, shift, f.bit_size, f.t), std::move(v), f.t, where);
  }
  const type wide = integer_type("uint64_t", 8, false);
  const auto ones = f.bit_size == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f.bit_size) - 1;
  auto kept = arithmetic(ir::op::bit_and, cast_to(place.memory, wide), sized(~(ones << shift), where), wide, where);
  auto field = arithmetic(ir::op::bit_and, cast_to(std::move(v), wide), sized(ones, where), wide, where);
  auto bits = arithmetic(ir::op::bit_or, std::move(kept),
                         arithmetic(ir::op::shift_left, std::move(field), sized(shift, where), wide, where), wide, where);
  expr store;
  store.kind = kind_t::assign;
  store.operation = ir::op::assign;
  store.t = place.memory.t;
  store.where = where;
  store.kids.push_back(cast_to(std::move(bits), place.memory.t));
  store.kids.insert(store.kids.begin(), std::move(place.memory));
  return bit_field(std::move(store), shift, f.bit_size, f.t);
}

// *p: the object a pointer to a kernel type points to.
expr checker::dereference(const ast::node_ptr& n) {
  auto p = value(n->kids[0]);
  const auto t = pointed_to(p.t);
  if (!t) fail("D_DEREF_NONPTR", "cannot dereference non-pointer type", n->where);
  if (t->is_void() || t->size == 0) fail("D_DEREF_VOID", "cannot dereference pointer to void", n->where);
  expr e;
  e.kind = kind_t::memory;
  e.t = *t;
  e.kids.push_back(std::move(p));
  e.where = n->where;
  return e;
}

namespace {

expr add_offset(expr address, expr offset, const type& t) {
  expr e;
  e.kind = kind_t::binary;
  e.operation = ir::op::add;
  e.t = t;
  e.where = address.where;
  e.kids.push_back(std::move(address));
  e.kids.push_back(std::move(offset));
  return e;
}

}  // namespace

// &x: the address of an object in kernel memory (a member, an element, *p), a pointer to it.
expr checker::address_of(const ast::node_ptr& n) {
  const auto& operand = n->kids[0];
  if (operand->kind == ast::node_kind::identifier || operand->kind == ast::node_kind::aggregation || (operand->kind == ast::node_kind::member &&
                                                      operand->kids[0]->kind == ast::node_kind::identifier &&
                                                      (operand->kids[0]->text == "self" || operand->kids[0]->text == "this")))
    fail("D_ADDROF_VAR", "cannot take address of dynamic variable", n->where);
  if (bit_field_place(operand)) fail("D_ADDROF_BITFIELD", "cannot take address of bit-field", n->where);
  auto o = object(operand);
  if (o.kind != kind_t::memory) fail("D_ADDROF_LVAL", "unacceptable operand for unary & operator", n->where);
  // A struct, union or array points to its own type; an integer member is a plain address.
  const type t = o.t.is_object() && o.t.id != 0 ? pointer_to(o.t) : integer_type(o.t.name + " *", 8, false);
  auto offset = integer_constant(static_cast<std::uint64_t>(o.value), true, false, n->where);
  return add_offset(std::move(o.kids[0]), std::move(offset), t);
}

// p[i] and a[i]: the element i places past a pointer or into an array (a variable's, or of the
// kernel's types). An array's index is bounds-checked as DTrace checks it, but for arrays of 0
// and 1 elements (a structure's trailing, dynamically sized, array): a constant one here
// (D_ARR_BOUNDS), a computed one by the engine (the add's `value`, the element's size).
expr checker::element_of(const ast::node_ptr& n) {
  auto base = object(n->kids[0]);
  if (base.t.is_string() && n->kids.size() == 2) {
    auto i = value(n->kids[1]);
    if (!i.t.is_integer() || i.t.is_pointer()) fail("D_OP_INT", "operator [ ] requires an operand of integral type", n->kids[1]->where);
    // A translated char array member (`curlwpsinfo->pr_name`) is its string, within its array.
    const bool member_array = n->kids[0]->kind == ast::node_kind::member && base.kind == kind_t::memory_string &&
                              base.kids[0].t.kind == type::category::array;
    if (member_array && i.kind == kind_t::constant && static_cast<std::uint64_t>(i.value) >= base.kids[0].t.size)
      fail("D_ARR_BOUNDS", "index outside array bounds: " + std::to_string(static_cast<std::uint64_t>(i.value)) +
                               ", max is " + std::to_string(base.kids[0].t.size), n->where);
    expr e;
    e.kind = kind_t::string_character;
    e.t = integer_type("char", 1, true);
    e.where = n->where;
    e.kids.push_back(std::move(base));
    e.kids.push_back(cast_to(std::move(i), integer_type("int64_t", 8, true)));
    return e;
  }
  const bool array = base.t.kind == type::category::array;
  if (n->kids.size() != 2) {
    if ((array || base.t.is_string()) && base.kind == kind_t::variable)
      fail("D_ARR_BADREF", "cannot access scalar " + base.text + " as an associative array", n->where);
    fail("D_UNKNOWN", "indexing this expression is not supported yet", n->where);
  }
  std::optional<type> t;
  // The program's own arrays need no kernel types (a struct variable's member, in-process too).
  if (array) t = (ir::names_table_type(base.t) ? kernel_types("operator [ ]", n->where) : types_).element(base.t.id);
  else if (const auto target = pointed_to(base.t)) t = target;
  else fail("D_UNKNOWN", "indexing this expression is not supported yet", n->where);
  if (!t || t->is_void() || t->size == 0) fail("D_DEREF_VOID", "cannot dereference pointer to void", n->where);
  auto i = value(n->kids[1]);
  if (!i.t.is_integer() || i.t.is_pointer()) fail("D_OP_INT", "operator [ ] requires an operand of integral type", n->kids[1]->where);
  const auto count = array ? base.t.size / t->size : 0;
  if (count > 1 && i.kind == kind_t::constant && static_cast<std::uint64_t>(i.value) >= count)
    fail("D_ARR_BOUNDS", "index outside array bounds: " + std::to_string(static_cast<std::uint64_t>(i.value)) +
                             ", max is " + std::to_string(count), n->where);
  expr e;
  e.kind = kind_t::memory;
  e.t = *t;
  e.where = n->where;
  if (i.kind == kind_t::constant && array && (base.kind == kind_t::memory || base.kind == kind_t::variable)) {
    // a[3] of a member or variable: one offset from the same address
    e.value = (base.kind == kind_t::memory ? base.value : 0) + i.value * t->size;
    if (base.kind == kind_t::memory) e.kids = std::move(base.kids);
    else e.kids.push_back(std::move(base));
    return e;
  }
  auto address = add_offset(std::move(base), scaled(std::move(i), t->size, n->where), integer_type("uintptr_t", 8, false));
  if (count > 1) address.value = t->size;
  e.kids.push_back(std::move(address));
  return e;
}

// offsetof(struct T, member): the member's byte offset, a constant.
expr checker::offset_of(const ast::node_ptr& n) {
  const auto t = find_type(n->text);
  if (!t || t->kind != type::category::record)
    fail("D_OFFSETOF_TYPE", "offsetof operand must be a struct or union type", n->where);
  const auto m = (ir::names_table_type(*t) ? kernel_types("offsetof", n->where) : types_).member(t->id, n->name);
  if (!m) fail("D_UNKNOWN", "failed to determine offset of " + n->name + ": Member name not found", n->where);
  if (m->bit_size != 0) fail("D_OFFSETOF_BITFIELD", "cannot take offset of a bit-field: " + n->name, n->where);
  return sized(m->bit_offset / 8, n->where);
}

// Whether `t` is a char array or a char pointer of the type table's: what D reads as a string.
bool checker::holds_chars(const type& t, ast::span) {
  const auto is_char = [](const std::optional<type>& c) { return c && c->is_integer() && c->size == 1; };
  if (t.kind == type::category::array) return is_char(types_.element(t.id));
  return is_char(pointed_to(t));
}

// The string in kernel memory at a char array or char pointer; `from_scratch`: a pointer
// alloca() or copyin() gave (DTrace's alloca taint), whose read is checked against the bytes taken.
expr checker::memory_string(expr chars, ast::span where, bool from_scratch) {
  expr e;
  e.kind = kind_t::memory_string;
  e.value = from_scratch;
  e.t = {type::category::string, options_.string_bytes(), false, "string"};
  e.kids.push_back(std::move(chars));
  e.where = where;
  return e;
}

// stringof(x): a string unchanged, a char array or char pointer of the kernel's the string in
// kernel memory there, any other value its decimal text.
expr checker::string_of(const ast::node_ptr& n) {
  auto v = object(n->kids[0]);
  if (v.t.is_void()) fail("D_STRINGOF_TYPE", "cannot apply stringof to a value of type void", n->where);
  if (v.t.is_string()) return v;
  const bool from_scratch = holds_scratch(n->kids[0]);
  if (holds_chars(v.t, n->where)) return memory_string(std::move(v), n->where, from_scratch);
  // A void * is bytes of unknown type, copyin()'s and alloca()'s: their string, as DTrace reads it.
  if (const auto target = pointed_to(v.t); target && target->is_void())
    return memory_string(std::move(v), n->where, from_scratch);
  if (v.t.is_object() || v.t.is_floating())
    fail("D_STRINGOF_TYPE", "cannot apply stringof to a value of type " + v.t.name, n->where);
  expr e;
  e.kind = kind_t::stringof;
  e.t = {type::category::string, options_.string_bytes(), false, "string"};
  e.kids.push_back(std::move(v));
  e.where = n->where;
  return e;
}


// The arguments every probe of the clause declares alike (asked of the type table once per clause).
const std::vector<ir::probe_argument>& checker::clause_arguments() {
  if (clause_arguments_) return *clause_arguments_;
  clause_arguments_.emplace();
  if (!options_.types || !clause_probes_) return *clause_arguments_;
  bool first = true;
  for (const auto& p : *clause_probes_) {
    auto own = options_.types->probe_arguments(p);
    if (first) {
      *clause_arguments_ = std::move(own);
      first = false;
      continue;
    }
    std::size_t same = 0;
    while (same < own.size() && same < clause_arguments_->size() && ir::same_argument((*clause_arguments_)[same], own[same])) ++same;
    clause_arguments_->resize(same);
  }
  return *clause_arguments_;
}

// argN: the probe's Nth argument as a 64-bit integer, whatever its type.
expr checker::untyped_argument(std::int64_t n, ast::span where) {
  expr e;
  e.kind = kind_t::builtin;
  e.index = static_cast<std::uint32_t>(ir::builtin::arg);
  e.value = n;
  e.t = integer_type("int64_t", 8, true);
  e.where = where;
  return e;
}

// args[N] as the clause's probes declare it: an integer or pointer of its C type, a char array
// or a __data_loc string as a string; int64_t where they do not say (or disagree).
expr checker::probe_argument(std::int64_t n, ast::span where) {
  // BEGIN and END have no arguments at all (dtrace-utils' dtrace provider declares none).
  const auto argumentless = [](const ir::probe& p) {
    return (p.provider.empty() || p.provider == "dtrace") && p.module.empty() && p.function.empty() &&
           (p.name == "BEGIN" || p.name == "END");
  };
  if (clause_probes_ && !clause_probes_->empty() && std::all_of(clause_probes_->begin(), clause_probes_->end(), argumentless))
    fail("D_ARGS_IDX", "index " + std::to_string(n) + " is out of range for dtrace:::" + clause_probes_->front().name + " args[ ]",
         where);
  const auto& declared = clause_arguments();
  if (n < 0 || static_cast<std::size_t>(n) >= declared.size()) return untyped_argument(n, where);
  const auto& a = declared[static_cast<std::size_t>(n)];
  if (!a.translated.empty()) return translated_whole(a.translated, native_argument(n, a, where), where);
  if (!a.computed.empty()) {
    const auto it = inlines_.find(a.computed);
    if (it == inlines_.end())
      fail("D_UNKNOWN", "args[" + std::to_string(n) + "] is computed by D's library (" + a.computed + "), which is not loaded", where);
    const auto t = find_type(a.type_name);  // the raw argument's size is the carrier's, not the value's
    if (!t || !t->is_integer()) fail("D_UNKNOWN", "args[" + std::to_string(n) + "] of type " + a.type_name + " is not supported yet", where);
    auto e = cast_to(value(it->second.second), *t);
    e.where = where;
    return e;
  }
  return native_argument(n, a, where);
}

// args[N] of the form a translated argument takes (args[0]->pr_pid): N, when the clause's probes
// declare that argument translated.
std::optional<std::int64_t> checker::translated_argument(const ast::node_ptr& n) {
  if (n->kind != ast::node_kind::index || n->kids.size() != 2 || n->kids[0]->kind != ast::node_kind::identifier ||
      n->kids[0]->text != "args")
    return std::nullopt;
  const auto i = value(n->kids[1]);
  const auto& declared = clause_arguments();
  if (i.kind != kind_t::constant || i.value < 0 || static_cast<std::size_t>(i.value) >= declared.size() ||
      declared[static_cast<std::size_t>(i.value)].translated.empty())
    return std::nullopt;
  return i.value;
}

// args[N] as its native type `a` declares it.
expr checker::native_argument(std::int64_t n, const ir::probe_argument& a, ast::span where) {
  auto raw = untyped_argument(n, where);
  std::string name = a.type_name;
  for (const char* qualifier : {"const ", "volatile "})
    for (auto at = name.find(qualifier); at != std::string::npos; at = name.find(qualifier)) name.erase(at, std::strlen(qualifier));
  expr record;
  record.kind = kind_t::builtin;
  record.index = static_cast<std::uint32_t>(ir::builtin::probe_record);
  record.t = integer_type("uintptr_t", 8, false);
  record.text = "probe_record";
  record.where = where;
  if (name == "__data_loc char[]") {  // 16 bits of length, 16 of offset in the record
    auto offset = raw;
    offset.t = integer_type("uint32_t", 4, false);
    expr low;
    low.kind = kind_t::binary;
    low.operation = ir::op::bit_and;
    low.t = offset.t;
    low.where = where;
    low.kids.push_back(std::move(offset));
    low.kids.push_back(integer_constant(0xffff, true, false, where));
    expr address;
    address.kind = kind_t::binary;
    address.operation = ir::op::add;
    address.t = integer_type("char *", 8, false);
    address.where = where;
    address.kids.push_back(std::move(record));
    address.kids.push_back(std::move(low));
    return memory_string(std::move(address), where);
  }
  if (name.rfind("char[", 0) == 0 && name.back() == ']') {  // a char array inside the record
    expr chars;
    chars.kind = kind_t::memory;
    chars.t = {type::category::array, a.size, false, a.type_name};
    chars.value = a.offset;
    chars.where = where;
    chars.kids.push_back(std::move(record));
    return memory_string(std::move(chars), where);
  }
  if (name.find('[') != std::string::npos)
    fail("D_UNKNOWN", "args[" + std::to_string(n) + "] of type " + a.type_name + " is not supported yet", where);
  auto t = find_type(name);
  if (!t || !t->is_integer()) t = integer_type(a.type_name, a.size >= 8 ? 8 : a.size, a.is_signed);
  if (t->is_pointer()) {
    raw.t = *t;
    raw.t.name = a.type_name;
    return raw;
  }
  auto e = cast_to(std::move(raw), *t);
  e.t.name = a.type_name;
  return e;
}

// args->name: the argument the clause's probes declare by that name.
expr checker::named_argument(const std::string& name, ast::span where) {
  const auto& declared = clause_arguments();
  for (std::size_t i = 0; i < declared.size(); ++i)
    if (declared[i].name == name) return probe_argument(static_cast<std::int64_t>(i), where);
  fail("D_TYPE_MEMBER", name + " is not a member of the probe's arguments", where);
}

}  // namespace dtpp::d::detail
