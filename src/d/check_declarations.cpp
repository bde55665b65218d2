// The D checker: types declared in D (struct, union, enum, typedef), translators, and member
// access through xlate, which checks the translator's expression for the member with the
// translator's parameter standing for xlate's operand.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker.hpp"

namespace dtpp::d::detail {

namespace {

// "struct  out *" -> "struct out *": single blanks, none before a '*', as D prints type names.
std::string clean_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '\t' || c == '\n') c = ' ';  // the source's blanks between a member's type and name
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    if (c == '*' && !out.empty() && out.back() != ' ' && out.back() != '*') out += ' ';
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool is_record(const std::optional<type>& t) { return t && t->kind == type::category::record; }

}  // namespace

void checker::declare_type(const ast::type_declaration& d) {
  try {
    if (d.keyword == "typedef") {
      const auto t = declared_type(d.type, d.record, d.where);
      if (!t) fail("D_UNKNOWN", "failed to resolve type " + clean_name(d.type) + " of typedef " + d.name, d.where);
      if (types_.declares(d.name) || named_type(d.name, options_.string_bytes()))
        fail("D_DECL_IDRED", "typedef redeclared: " + d.name, d.where);
      types_.add_name(d.name, *t);
    } else if (d.keyword == "enum") {
      declare_enum(d);
    } else {
      declare_struct(d);
    }
  } catch (const failed&) {
    return;
  }
  for (const auto& variable : d.variables) {
    ast::declaration v;
    v.type = d.keyword + " " + d.name + " " + variable.stars;
    v.name = variable.name;
    v.dimensions = variable.dimensions;
    v.where = d.where;
    declare(v);
  }
}

// A struct or union; an anonymous one (no tag) is named "struct " or "union ", as DTrace (libctf)
// prints it.
type checker::declare_struct(const ast::type_declaration& d) {
  const auto name = d.keyword + " " + d.name;
  if (!d.name.empty() && types_.declares(name) && types_.find(name)->size != 0)
    fail("D_DECL_TYPERED", "type redeclared: " + name, d.where);
  std::vector<declared_types::record_member> members;
  for (const auto& m : d.members) {
    auto t = declared_type(m.type, m.record, m.where);
    const auto shown = m.name.empty() ? std::string("(anon)") : m.name;
    if (!t || (t->is_object() && t->size == 0))
      fail("D_DECL_INCOMPLETE", "incomplete struct/union/enum " + clean_name(m.type) + ": " + shown, m.where);
    if (m.is_function) fail("D_DECL_VOIDOBJ", "cannot have void member: " + shown, m.where);  // a function has no size
    if (t->is_void()) fail("D_DECL_VOIDOBJ", "cannot have void object: " + shown, m.where);
    if (t->is_string() || t->is_stack())
      fail("D_UNKNOWN", "a member of type " + t->name + " is not supported yet: " + shown, m.where);
    for (const auto& earlier : members)
      if (!m.name.empty() && earlier.name == m.name)
        fail("D_UNKNOWN", "failed to define member '" + m.name + "': Duplicate member or variable name", m.where);
    std::uint32_t bits = 0;
    if (m.bits) {
      bits = bit_field_width(m, *t, shown);
      if (bits == 0) continue;  // `int : 0;`: C's "no more in this unit", which D's layout has no need of
    }
    if (!m.count.empty()) {
      const auto count = std::stoull(m.count, nullptr, 0);
      if (count == 0 || count > (1u << 24))
        fail("D_DECL_ARRSUB", "array dimension must be a positive integral constant: " + m.name, m.where);
      t = types_.add_array(*t, static_cast<std::uint32_t>(count));
    }
    members.push_back({m.name, *t, bits});
  }
  return types_.add_record(name, d.keyword == "union", members);
}

// A bit-field's width, with DTrace's errors for its width and type; an unnamed one may be 0.
std::uint32_t checker::bit_field_width(const ast::declared_member& m, const type& t, const std::string& shown) {
  const auto width = value(m.bits);
  const bool zero = m.name.empty() && width.kind == kind_t::constant && width.t.is_integer() && width.value == 0;
  if (!zero && (width.kind != kind_t::constant || !width.t.is_integer() || width.value <= 0))
    fail("D_DECL_BFCONST", "positive integral constant expression expected as bit-field size", m.where);
  if (zero) return 0;
  if (!t.is_integer() || pointed_to(t)) fail("D_DECL_BFTYPE", "invalid type for bit-field: " + shown, m.where);
  if (static_cast<std::uint64_t>(width.value) > 8u * t.size) fail("D_DECL_BFSIZE", "bit-field too big for type: " + shown, m.where);
  return static_cast<std::uint32_t>(width.value);
}

// Enumerators count from 0, or on from the value last given; each is a constant of the enum's
// type, an int.
type checker::declare_enum(const ast::type_declaration& d) {
  const auto name = d.name.empty() ? std::string() : "enum " + d.name;
  if (!name.empty() && types_.declares(name)) fail("D_DECL_TYPERED", "type redeclared: " + name, d.where);
  const type t = integer_type(name.empty() ? "int" : name, 4, true);
  std::int64_t next = 0;
  for (const auto& m : d.members) {
    if (m.value) {
      const auto v = value(m.value);
      if (v.kind != kind_t::constant || !v.t.is_integer())
        fail("D_DECL_ENCONST", "enumerator '" + m.name + "' must be assigned to an integral constant expression",
             m.where);
      next = v.value;
    }
    if (next < INT32_MIN || next > INT32_MAX)
      fail("D_DECL_ENOFLOW", "enumerator '" + m.name + "' value overflows INT_MAX (" + std::to_string(INT32_MAX) + ")",
           m.where);
    if (std::any_of(d.members.begin(), d.members.begin() + (&m - d.members.data()), [&](const auto& e) { return e.name == m.name; }))
      fail("D_UNKNOWN", "failed to define enumerator '" + m.name + "': Duplicate member or variable name", m.where);
    if (enumerators_.count(m.name) || inlines_.count(m.name) || globals_.count(m.name))
      fail("D_DECL_IDRED", "identifier redeclared: " + m.name, m.where);
    enumerators_.emplace(m.name, std::make_pair(t, next++));
  }
  if (!name.empty()) types_.add_name(name, t);
  return t;
}

// A translator's output or input type, with DTrace's errors for each.
std::optional<type> checker::translator_type(const std::string& name, bool output, ast::span where) {
  const auto t = find_type(name);
  if (!output) {
    if (const auto forward = t ? std::nullopt : forward_pointer(name)) return forward;
    if (!t) fail("D_TYPE_ERR", "failed to resolve translator input type " + clean_name(name), where);
    return t;
  }
  if (!t && name.find('*') == std::string::npos && (name.rfind("struct ", 0) == 0 || name.rfind("union ", 0) == 0))
    fail("D_XLATE_SOU", "incomplete struct/union/enum " + clean_name(name), where);
  if (!is_record(t)) fail("D_XLATE_SOU", "translator output type must be a struct or union", where);
  return t;
}

// A translator from the program is checked here, so that its errors are reported at it; one from
// D's library where it is first used (its input type is the kernel's, its members read BTF).
void checker::declare_translator(const ast::translator& t) {
  // DTrace reports the translator's own errors where its declaration ends.
  const ast::span end{t.where.end - 1, t.where.end};
  try {
    const auto output = translator_type(t.output, true, end);
    for (const auto& earlier : translators_)
      if (earlier.output == *output && clean_name(earlier.decl.input) == clean_name(t.input))
        fail("D_XLATE_REDECL", "translator from " + clean_name(t.input) + " to " + output->name +
                                   " has already been declared", end);
    for (const auto& m : t.members)
      if (!types_.member(output->id, m.name))
        fail("D_XLATE_MEMB", "translator member " + m.name + " is not a member of " + output->name, m.where);
    if (in_library(t.where)) {
      translators_.push_back({std::nullopt, *output, t});
      return;
    }
    const auto input = translator_type(t.input, false, end);
    // The input a value of its type (a struct by value: its address, as D passes one).
    expr parameter;
    parameter.kind = kind_t::constant;
    parameter.t = *input;
    parameter.where = t.where;
    for (const auto& m : t.members) translator_member(t, m, parameter);
    translators_.push_back({input, *output, t});
  } catch (const failed&) {
  }
}

// The value of translator `t`'s member `m` for `input`, converted to the member's type.
expr checker::translator_member(const ast::translator& t, const ast::declared_member& m, expr input) {
  const auto output = find_type(t.output);
  const auto target = types_.member(output->id, m.name)->t;
  const bound_parameters parameter(parameters_, {{t.parameter, std::move(input)}});
  auto v = value(m.value);
  const bool chars = target.kind == type::category::array && holds_chars(target, m.where);
  const auto is_pointer = [](const type& x) { return x.is_pointer() || (!x.name.empty() && x.name.back() == '*'); };
  const bool compatible =
      chars ? v.t.is_string()
            : target.is_integer() && v.t.is_integer() &&
                  (is_pointer(target) == is_pointer(v.t) || (v.kind == kind_t::constant && v.value == 0));
  if (!compatible)
    fail("D_XLATE_INCOMPAT", "translator member " + m.name + " definition uses incompatible types: \"" + target.name +
                                 "\" = \"" + v.t.name + "\"", m.where);
  if (chars) return v;
  auto e = cast_to(std::move(v), target);
  e.t = target;
  return e;
}

// The xlate an expression stands for: itself, or an inline's (`curpsinfo`); null for others.
const ast::node* checker::xlate_of(const ast::node_ptr& n) const {
  if (n->kind == ast::node_kind::xlate) return n.get();
  if (n->kind != ast::node_kind::identifier) return nullptr;
  for (const auto& p : parameters_)
    if (p.first == n->text) return nullptr;
  const auto it = inlines_.find(n->text);
  return it == inlines_.end() ? nullptr : xlate_of(it->second.second);
}

// xlate<T *>(e)->m and xlate<T>(e).m (output_name "T *" or "T", written at `where`, `input` e's
// value), and args[N]->m of a translated argument: the member's expression in the translator
// from the input's type to T.
expr checker::translated_member(const ast::node_ptr& n, const std::string& output_name, expr input, ast::span where) {
  const bool to_pointer = output_name.find('*') != std::string::npos;
  const auto output = find_type(to_pointer ? output_name.substr(0, output_name.find('*')) : output_name);
  if (!is_record(output)) fail("D_XLATE_SOU", "translator output type must be a struct or union", where);
  // The translation first (D_XLATE_NONE), then the operator on what it gives, as DTrace cooks them.
  const auto& chosen = translator_for(*output, input.t, where);
  if (to_pointer != (n->text == "->"))
    fail(to_pointer ? "D_OP_SOU" : "D_OP_PTR",
         to_pointer ? "operator . cannot be applied to type \"" + output->name + " *\"; must be applied to a struct or union"
                    : "operator -> must be applied to a pointer",
         n->where);
  if (!types_.member(output->id, n->name)) fail("D_TYPE_MEMBER", n->name + " is not a member of " + output->name, n->where);
  for (const auto& m : chosen.decl.members)
    if (m.name == n->name) {
      auto e = translator_member(chosen.decl, m, std::move(input));
      e.where = n->where;
      return e;
    }
  fail("D_XLATE_NOCONV", "translator does not define conversion for member: " + n->name, n->where);
}

// The translator from `input` to `output` (a struct or union), or D_XLATE_NONE.
const checker::translator_decl& checker::translator_for(const type& output, const type& input, ast::span where) {
  for (auto& t : translators_) {
    if (t.output != output) continue;
    if (!t.input) t.input = find_type(t.decl.input);
    if (!t.input) continue;  // a library translator from a type this engine lacks
    const auto& from = *t.input;
    if (from.name == input.name || (from.is_pointer() && from.pointee == input.pointee) ||
        (from.is_integer() && !from.is_pointer() && input.is_integer() && !input.is_pointer()))
      return t;
  }
  fail("D_XLATE_NONE", "cannot translate from \"" + input.name + "\" to \"" + output.name + "\"", where);
}

// xlate<T *>(e) or xlate<T>(e) as a whole (`trace(curcpu)`, `*curpsinfo`): every member the
// translator defines stored into scratch memory (alloca()'d: zero where it defines none), as
// illumos DTrace expands a translation there; the address, or the struct there. The input
// is evaluated once, into a clause-local variable; the address is kept in another.
expr checker::translated_whole(const std::string& output_name, expr input, ast::span where) {
  const bool to_pointer = output_name.find('*') != std::string::npos;
  const auto output = find_type(to_pointer ? output_name.substr(0, output_name.find('*')) : output_name);
  if (!is_record(output)) fail("D_XLATE_SOU", "translator output type must be a struct or union", where);
  const auto& chosen = translator_for(*output, input.t, where);
  const auto pointer = *find_type(output->name + " *");
  const auto hidden = [&](const type& t) {
    return variable_ref(new_variable("xlate " + std::to_string(result_.program.variables.size()), ir::scope::clause, t), where);
  };
  const auto assigned = [&](expr target, expr v) {  // target = v (no constant: never folded)
    const auto t = target.t;
    auto e = arithmetic(ir::op::assign, std::move(target), std::move(v), t, where);
    e.kind = kind_t::assign;
    return e;
  };
  expr whole;
  whole.kind = kind_t::sequence;
  whole.t = pointer;
  whole.where = where;
  const auto from = hidden(input.t);
  whole.kids.push_back(assigned(from, std::move(input)));
  const auto at = hidden(pointer);
  scratch_variables_.insert(at.index);
  expr taken;
  taken.kind = kind_t::call;
  taken.function = ir::subroutine::alloca;
  taken.t = pointer;
  taken.where = where;
  taken.kids.push_back(sized(output->size, where));
  whole.kids.push_back(assigned(at, std::move(taken)));
  for (const auto& m : chosen.decl.members) {
    const auto member = types_.member(output->id, m.name);
    if (!member) fail("D_TYPE_MEMBER", m.name + " is not a member of " + output->name, m.where);
    expr target;
    target.kind = kind_t::memory;
    target.t = member->t;
    target.value = member->bit_offset / 8;
    target.where = where;
    target.kids.push_back(at);
    auto v = translator_member(chosen.decl, m, from);
    if (v.t.is_string()) {  // a char array member: the string's bytes, as many as both hold
      const auto bytes = std::min<std::uint32_t>(target.t.size, options_.string_bytes());
      whole.kids.push_back(string_store(std::move(target), std::move(v), bytes));
    } else {
      whole.kids.push_back(assigned(std::move(target), std::move(v)));
    }
  }
  whole.kids.push_back(at);
  if (to_pointer) return whole;
  expr object;
  object.kind = kind_t::memory;
  object.t = *output;
  object.where = where;
  object.kids.push_back(std::move(whole));
  return object;
}

}  // namespace dtpp::d::detail
