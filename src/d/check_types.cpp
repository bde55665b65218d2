// The D checker: type names, the usual arithmetic conversions, declarations and casts.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker.hpp"

namespace dtpp::d::detail {

std::optional<type> named_type(std::string name, std::uint32_t strsize) {
  // Normalize blanks: "unsigned  long" -> "unsigned long"; "char *" stays a pointer (8 bytes).
  std::string clean;
  for (char c : name)
    if (c != ' ' || (!clean.empty() && clean.back() != ' ')) clean += c;
  while (!clean.empty() && clean.back() == ' ') clean.pop_back();
  if (!clean.empty() && clean.back() == '*') return integer_type(clean, 8, false);
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
      {"uintptr_t", 8, false}, {"size_t", 8, false}, {"ssize_t", 8, true}, {"pid_t", 4, true},
      {"id_t", 4, true}, {"uid_t", 4, false}, {"gid_t", 4, false}, {"processorid_t", 4, true},
      {"zoneid_t", 4, true}, {"boolean_t", 4, true}, {"uchar_t", 1, false},
      {"ushort_t", 2, false}, {"uint_t", 4, false}, {"ulong_t", 8, false},
      {"u_longlong_t", 8, false}, {"longlong_t", 8, true}, {"off_t", 8, true},
      {"caddr_t", 8, false}, {"hrtime_t", 8, true},
      // The Linux kernel's own short names (linux/types.h), which Linux DTrace knows from its BTF.
      {"ushort", 2, false}, {"uint", 4, false}, {"ulong", 8, false},
      {"dev_t", 4, false}};  // the kernel's dev_t: major in bits 20-31, minor in bits 0-19
  for (const auto& e : table)
    if (clean == e.name) return integer_type(clean, e.size, e.is_signed);
  if (clean == "string") return type{type::category::string, strsize, false, "string"};
  if (clean == "void") return void_type();
  return std::nullopt;
}

type promote(const type& a, const type& b) {
  const auto size = std::max<std::uint32_t>({a.size, b.size, 4});
  const bool is_unsigned = (a.size == size && !a.is_signed) || (b.size == size && !b.is_signed);
  if (size == 4) return is_unsigned ? integer_type("unsigned int", 4, false) : int_type();
  return is_unsigned ? integer_type("unsigned long", 8, false) : integer_type("long", 8, true);
}

void checker::declare(const ast::declaration& d) {
  const auto t = named_type(d.type, options_.strsize);
  if (!t || t->is_void()) {
    error("D_DECL_VOIDOBJ", (d.is_inline ? "cannot declare void inline: " : "cannot have void object: ") + d.name, d.where);
    return;
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
    if (!d.keys.empty()) {
      error("D_UNKNOWN", "inline arrays are not supported yet: " + d.name, d.where);
      return;
    }
    if (inlines_.count(d.name) || globals_.count(d.name)) {
      error("D_DECL_IDRED", "identifier redefined: " + d.name, d.where);
      return;
    }
    // Checked here once, so that an error in it is reported at the declaration.
    try {
      const auto v = value(d.value);
      if (v.t.is_string() != t->is_string() || v.t.is_void())
        fail("D_OP_INCOMPAT", "operands have incompatible types: \"" + t->name + "\" = \"" + v.t.name + "\"", d.value->where);
    } catch (const failed&) {
      return;
    }
    inlines_.emplace(d.name, std::make_pair(*t, d.value));
    return;
  }
  std::vector<type> keys;
  for (const auto& k : d.keys) {
    const auto kt = named_type(k, options_.strsize);
    if (!kt || kt->is_void()) {
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

expr checker::cast(const ast::node_ptr& n) {
  const auto t = named_type(n->text, options_.strsize);
  auto v = value(n->kids[0]);
  if (t && t->is_void() && !v.t.is_void()) {  // (void)x: evaluated, its value dropped, as in C
    v.t = void_type();
    return v;
  }
  if (!t || t->is_void() || t->is_string() != v.t.is_string() || v.t.is_void())
    fail("D_CAST_INVAL", "invalid cast expression: \"" + v.t.name + "\" to \"" + n->text + "\"", n->where);
  if (t->is_string()) return v;
  auto e = cast_to(std::move(v), *t);
  e.where = n->where;
  return e;
}

}  // namespace dtpp::d::detail
