// The D checker: types, variables, aggregations, actions and DTrace's diagnostics.

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dtpp/agg/functions.hpp"
#include "dtpp/d/check.hpp"
#include "dtpp/d/parser.hpp"

namespace dtpp::d {

namespace detail {

using ir::expr;
using ir::type;
using kind_t = ir::expr::kind_t;

inline type integer_type(std::string name, std::uint32_t size, bool is_signed) {
  return {type::category::integer, size, is_signed, std::move(name)};
}
inline type int_type() { return integer_type("int", 4, true); }
inline type void_type() { return {type::category::void_type, 0, false, "void"}; }

// D's integer type names (LP64), as casts, sizeof and messages use them.
inline std::optional<type> named_type(std::string name, std::uint32_t strsize) {
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
      {"ushort", 2, false}, {"uint", 4, false}, {"ulong", 8, false}};
  for (const auto& e : table)
    if (clean == e.name) return integer_type(clean, e.size, e.is_signed);
  if (clean == "string") return type{type::category::string, strsize, false, "string"};
  if (clean == "void") return void_type();
  return std::nullopt;
}

// The usual arithmetic conversions on D's integers.
inline type promote(const type& a, const type& b) {
  const auto size = std::max<std::uint32_t>({a.size, b.size, 4});
  const bool is_unsigned = (a.size == size && !a.is_signed) || (b.size == size && !b.is_signed);
  if (size == 4) return is_unsigned ? integer_type("unsigned int", 4, false) : int_type();
  return is_unsigned ? integer_type("unsigned long", 8, false) : integer_type("long", 8, true);
}

// Wraps a value to a type's size and signedness.

struct builtin_info { const char* name; ir::builtin id; type t; };
// Built once and never changed, so that checkers on several threads share it. String variables
// take the program's strsize when they are used (string_sized).
inline const std::vector<builtin_info>& builtins() {
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
        {"ucaller", ir::builtin::ucaller, integer_type("uint64_t", 8, false)}};
  }();
  return table;
}


class checker {
 public:
  checker(const source_file& source, const compile_options& options)
      : source_(source), options_(options) {
    referenced_.assign(options.arguments.size(), false);
  }

  compile_result run(const ast::program& program) {
    for (const auto& item : program.items) {
      if (const auto* p = std::get_if<ast::pragma>(&item)) pragma(*p);
      else if (const auto* d = std::get_if<ast::declaration>(&item)) declare(*d);
      else clause(std::get<ast::clause>(item));
    }
    if (result_.program.clauses.empty() && result_.errors.empty() && !options_.empty_ok)
      error("D_EMPTY", "empty D program translation unit",
            {static_cast<std::uint32_t>(source_.text().size()),
             static_cast<std::uint32_t>(source_.text().size())});
    // DTrace reports an extra operand that nothing used (only the last one is checked).
    if (result_.errors.empty() && !options_.argref && options_.arguments.size() > 1 &&
        !referenced_.back()) {
      const auto n = options_.arguments.size() - 1;
      error("D_MACRO_UNUSED",
            "extraneous argument '" + options_.arguments.back() + "' ($" + std::to_string(n) +
                " is not referenced)",
            diagnostic::nowhere);
    }
    return std::move(result_);
  }

 private:
  // ---- diagnostics ---------------------------------------------------------------------------

  void error(std::string tag, std::string message, ast::span where) {
    result_.errors.push_back({std::move(tag), std::move(message), where});
  }
  struct failed {};  // abandons the statement being checked; its error is already recorded
  [[noreturn]] void fail(std::string tag, std::string message, ast::span where) {
    error(std::move(tag), std::move(message), where);
    throw failed{};
  }
  std::uint32_t line_of(ast::span where) const { return source_.at(where.begin).line; }

  static std::string aggregation_name(const std::string& name) { return name.empty() ? "_" : name; }

  // ---- pragmas -------------------------------------------------------------------------------

  void pragma(const ast::pragma& p) {
    if (const auto why = options::option_error(p.name, p.has_value ? p.value.c_str() : nullptr)) {
      error("D_PRAGMA_OPTSET",
            "failed to set option '" + p.name + (p.has_value ? "' to '" + p.value : "") + "': " +
                std::string(*why),
            p.where);
      return;
    }
    if (p.name == "strsize") options_.strsize = static_cast<std::uint32_t>(*options::parse_size(p.value));
    set_frames_option(options_, p.name, p.value);
    if (p.name == "defaultargs") options_.defaultargs = true;
    if (p.name == "argref") options_.argref = true;
    if (p.name == "empty") options_.empty_ok = true;
    result_.program.options.push_back({p.name, p.value});
  }

  // ---- declarations --------------------------------------------------------------------------

  void declare(const ast::declaration& d) {
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
    auto& table = d.scope == "self" ? thread_locals_ : d.scope == "this" ? declared_clause_locals_ : globals_;
    if (table.count(d.name)) {
      error("D_DECL_IDRED", "identifier redeclared: " + d.name, d.where);
      return;
    }
    const auto scope = d.scope == "self" ? ir::scope::thread : d.scope == "this" ? ir::scope::clause : ir::scope::global;
    const auto prefix = d.scope.empty() ? std::string() : d.scope + "->";
    table.emplace(d.name, new_variable(prefix + d.name, scope, *t, keys));
  }

  // ---- clauses -------------------------------------------------------------------------------

  void clause(const ast::clause& c) {
    ir::clause out;
    out.id = static_cast<std::uint32_t>(result_.program.clauses.size() + 1);
    out.where = c.where;
    // No statement at all, as no body: DTrace's default action traces the firing itself.
    out.default_action = c.statements.empty();
    clause_locals_.clear();
    for (const auto& d : c.probes) {
      try {
        out.probes.push_back(probe(d));
      } catch (const failed&) {
      }
    }
    if (c.predicate) {
      try {
        auto p = value(c.predicate);
        if (!p.t.is_integer() && !p.t.is_string())
          fail("D_PRED_SCALAR", "predicate result must be of scalar type", c.predicate->where);
        out.predicate = std::move(p);
      } catch (const failed&) {
      }
    }
    std::uint32_t offset = 0;
    for (const auto& s : c.statements) {
      try {
        auto st = statement(s);
        for (auto& r : st.records) {
          const auto align = std::min<std::uint32_t>(std::max<std::uint32_t>(r.size, 1), 8);
          offset = (offset + align - 1) / align * align;
          r.offset = offset;
          offset += r.size;
        }
        out.statements.push_back(std::move(st));
      } catch (const failed&) {
      }
    }
    out.data_size = offset;
    // A clause with errors is kept too, so that later clauses keep their ids (and EPIDs); the
    // errors make the program unusable anyway.
    result_.program.clauses.push_back(std::move(out));
  }

  // provider:module:function:name, fewer fields meaning the rightmost; macros expanded.
  ir::probe probe(const ast::probe_description& d) {
    std::string text;
    for (std::size_t i = 0; i < d.text.size(); ++i) {
      if (d.text[i] != '$') {
        text += d.text[i];
        continue;
      }
      std::size_t j = i + 1;
      const bool as_string = j < d.text.size() && d.text[j] == '$';
      if (as_string) ++j;
      std::size_t k = j;
      while (k < d.text.size() && (std::isalnum(static_cast<unsigned char>(d.text[k])) || d.text[k] == '_')) ++k;
      const auto name = d.text.substr(j, k - j);
      const auto value = macro_value(name);
      if (!value)
        fail("D_PDESC_INVAL", "invalid probe description \"" + d.text +
                                  "\": Undefined macro variable in probe description",
             d.where);
      text += *value;
      i = k - 1;
    }
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
      if (i == text.size() || text[i] == ':') {
        fields.push_back(text.substr(start, i - start));
        start = i + 1;
      }
    if (fields.size() > 4)
      fail("D_PDESC_INVAL",
           "invalid probe description \"" + text + "\": Overspecified probe description", d.where);
    while (fields.size() < 4) fields.insert(fields.begin(), "");
    ir::probe p{fields[0], fields[1], fields[2], fields[3], d.where};
    validate_profile(p);
    return p;
  }

  // profile-N and tick-N must name a rate DTrace's profile provider offers.
  void validate_profile(const ir::probe& p) {
    const bool profile_named = p.name.rfind("profile-", 0) == 0 || p.name.rfind("tick-", 0) == 0;
    if (!profile_named || (!p.provider.empty() && p.provider != "profile")) return;
    if (p.name.find_first_of("*?[") != std::string::npos) return;
    const auto digits = p.name.substr(p.name.find('-') + 1);
    std::size_t n = 0;
    while (n < digits.size() && std::isdigit(static_cast<unsigned char>(digits[n]))) ++n;
    std::string suffix = digits.substr(n);
    for (auto& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const double count = n == 0 ? 0 : std::strtod(digits.substr(0, n).c_str(), nullptr);
    struct unit { const char* name; double ns; };
    static const unit units[] = {{"ns", 1}, {"nsec", 1}, {"us", 1e3}, {"usec", 1e3},
                                 {"ms", 1e6}, {"msec", 1e6}, {"s", 1e9}, {"sec", 1e9},
                                 {"m", 60e9}, {"min", 60e9}, {"h", 3600e9}, {"hour", 3600e9},
                                 {"d", 86400e9}, {"day", 86400e9}};
    double period = 0;
    if (count > 0 && (suffix.empty() || suffix == "hz")) period = 1e9 / count;
    for (const auto& u : units)
      if (count > 0 && suffix == u.name) period = count * u.ns;
    if (period < 200000)  // no such probe: zero, an unknown suffix, or faster than 5000 Hz
      fail("D_PDESC_ZERO", "probe description " + p.text() + " does not match any probes", p.where);
  }

  // ---- statements ----------------------------------------------------------------------------

  // libdtrace's parser refuses a call of anything but a name as it builds the call, before any
  // name in the statement is resolved: `@ = tick-1();` is D_FUNC_IDENT, not an unknown `tick`.
  void check_callees(const ast::node_ptr& n) {
    if (!n) return;
    if (n->kind == ast::node_kind::call && n->kids[0]->kind != ast::node_kind::identifier)
      fail("D_FUNC_IDENT", "function designator is not of function type", n->kids[0]->where);
    for (const auto& k : n->kids) check_callees(k);
  }

  ir::statement statement(const ast::node_ptr& n) {
    check_callees(n);
    ir::statement st;
    st.where = n->where;
    // @a[keys] = fn(args)
    if (n->kind == ast::node_kind::assign && is_aggregation_target(n->kids[0])) {
      aggregate(n, st);
      return st;
    }
    if (n->kind == ast::node_kind::aggregation ||
        (n->kind == ast::node_kind::index && n->kids[0]->kind == ast::node_kind::aggregation)) {
      // `@a;` names an aggregation, which must exist; `@a[1];` is an element, which need not.
      const auto& name = aggregation_node(n)->text;
      if (n->kind == ast::node_kind::aggregation && !aggregation_ids_.count(name))
        fail("D_IDENT_UNDEF", "failed to resolve @" + aggregation_name(name) + ": Unknown variable name", n->where);
      fail("D_AGG_NULL", "expression has null effect: @" + aggregation_name(name), n->where);
    }
    if (n->kind == ast::node_kind::call && n->kids[0]->kind == ast::node_kind::identifier) {
      const auto& name = n->kids[0]->text;
      if (action_call(name, n, st)) return st;
      if (is_aggregating_function(name))
        fail("D_CG_EXPR", "aggregating function " + name +
                              "( ) may not be called from a D expression (D program context "
                              "required)",
             n->where);
    }
    st.kind = ir::action::expression;
    st.args.push_back(value(n));
    return st;
  }

  static bool is_aggregating_function(const std::string& name) {
    for (const char* f : {"count", "sum", "min", "max", "avg", "stddev", "quantize", "lquantize", "llquantize"})
      if (name == f) return true;
    return false;
  }
  static bool is_aggregation_target(const ast::node_ptr& n) {
    return n->kind == ast::node_kind::aggregation ||
           (n->kind == ast::node_kind::index && n->kids[0]->kind == ast::node_kind::aggregation) ||
           (n->kind == ast::node_kind::index && n->kids[0]->kind == ast::node_kind::index &&
            n->kids[0]->kids[0]->kind == ast::node_kind::aggregation);
  }
  static const ast::node* aggregation_node(const ast::node_ptr& n) {
    const ast::node* p = n.get();
    while (p->kind == ast::node_kind::index) p = p->kids[0].get();
    return p;
  }

  void aggregate(const ast::node_ptr& n, ir::statement& st) {
    const auto& target = n->kids[0];
    const auto& rhs = n->kids[1];
    const auto* agg_node = aggregation_node(target);
    const auto name = aggregation_name(agg_node->text);
    if (target->kind == ast::node_kind::index && target->kids[0]->kind == ast::node_kind::index)
      fail("D_AGG_MDIM", "improper attempt to reference @" + name + " as a multi-dimensional array",
           target->where);
    if (n->text != "=" || rhs->kind != ast::node_kind::call ||
        rhs->kids[0]->kind != ast::node_kind::identifier ||
        !is_aggregating_function(rhs->kids[0]->text)) {
      (void)value(rhs);  // DTrace reports an undefined function or a bad call before this
      fail("D_AGG_FUNC", "@" + name + " must be assigned the result of an aggregating function",
           n->where);
    }
    const auto& fn_name = rhs->kids[0]->text;
    std::vector<ast::node_ptr> args(rhs->kids.begin() + 1, rhs->kids.end());

    // Keys: typed, and checked against the aggregation's prototype (its first use).
    std::vector<expr> keys;
    if (target->kind == ast::node_kind::index)
      for (std::size_t i = 1; i < target->kids.size(); ++i) {
        if (target->kids[i]->kind == ast::node_kind::aggregation)
          fail("D_KEY_TYPE", "aggregation expression may not be used as aggregation index: key #" +
                                 std::to_string(i),
               target->kids[i]->where);
        keys.push_back(value_or_stack(target->kids[i]));
      }
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (!keys[i].t.is_integer() && !keys[i].t.is_string() && !keys[i].t.is_stack())
        fail("D_KEY_TYPE", keys[i].t.name + " expression may not be used as aggregation index: key #" +
                               std::to_string(i + 1),
             keys[i].where);

    const agg::function fn = aggregating_function(fn_name, args, rhs, st);
    const std::string fname = fn_name;

    auto it = aggregation_ids_.find(agg_node->text);
    if (it == aggregation_ids_.end()) {
      agg::descriptor d;
      d.varid = static_cast<std::uint32_t>(result_.program.aggregations.size() + 1);
      d.name = agg_node->text;
      d.fn = fn;
      for (const auto& k : keys) d.keys.push_back(key_type_of(k.t));
      result_.program.aggregations.push_back(d);
      aggregation_lines_.push_back(line_of(n->where));
      aggregation_key_types_.push_back({});
      for (const auto& k : keys) aggregation_key_types_.back().push_back(k.t);
      it = aggregation_ids_.emplace(agg_node->text, d.varid).first;
    } else {
      const auto index = it->second - 1;
      const auto& d = result_.program.aggregations[index];
      if (d.fn.kind != fn.kind)
        fail("D_AGG_REDEF", "aggregation redefined: @" + name + "\n\t current: @" + name + " = " +
                                fname + "( )\n\tprevious: @" + name + " = " +
                                std::string(agg::name(d.fn.kind)) + "( ) : line " +
                                std::to_string(aggregation_lines_[index]),
             n->where);
      if (fn.kind == agg::kind::lquantize && d.fn.param != fn.param) {
        try {
          agg::lquantize_params::decode(d.fn.param).expect_same(agg::lquantize_params::decode(fn.param));
        } catch (const agg::param_error& e) {
          fail(e.tag(), e.what(), rhs->where);
        }
      }
      if (fn.kind == agg::kind::llquantize && d.fn.param != fn.param) {
        try {
          agg::llquantize_params::decode(d.fn.param).expect_same(agg::llquantize_params::decode(fn.param));
        } catch (const agg::param_error& e) {
          fail(e.tag(), e.what(), rhs->where);
        }
      }
      const auto& proto = aggregation_key_types_[index];
      if (proto.size() != keys.size())
        fail("D_PROTO_LEN", "@" + name + "[ ] prototype mismatch: " + std::to_string(keys.size()) +
                                (keys.size() == 1 ? " key" : " keys") + " passed, " +
                                std::to_string(proto.size()) + " expected",
             target->where);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (proto[i].is_string() != keys[i].t.is_string())
          fail("D_PROTO_ARG", "@" + name + "[ ] key #" + std::to_string(i + 1) +
                                  " is incompatible with prototype:\n\tprototype: " + proto[i].name +
                                  "\n\t      key: " + keys[i].t.name,
               keys[i].where);
        keys[i] = cast_to(std::move(keys[i]), proto[i]);  // integer keys take the prototype's size
      }
    }
    st.kind = ir::action::aggregate;
    st.aggregation = it->second;
    st.keys = std::move(keys);
  }

  // D_PROTO_LEN for a function or action given the wrong number of arguments.
  [[noreturn]] void prototype_mismatch(const std::string& name, std::size_t count, std::size_t expected,
                                       const char* qualifier, ast::span where) {
    fail("D_PROTO_LEN", name + "( ) prototype mismatch: " + std::to_string(count) +
                            (count == 1 ? " arg" : " args") + " passed, " + qualifier +
                            std::to_string(expected) + " expected",
         where);
  }

  // The aggregating function's arguments, checked as DTrace checks them.
  agg::function aggregating_function(const std::string& name, const std::vector<ast::node_ptr>& args,
                                     const ast::node_ptr& call, ir::statement& st) {
    const auto count = args.size();
    const auto mismatch = [&](std::size_t expected, const char* qualifier) {
      prototype_mismatch(name, count, expected, qualifier, call->where);
    };
    const auto scalar_value = [&](std::size_t i) {
      auto v = value(args[i]);
      if (!v.t.is_integer())
        fail("D_AGG_SCALAR", name + "( ) argument #1 must be of scalar type", args[i]->where);
      st.args.push_back(std::move(v));
    };
    const auto increment = [&](std::size_t i) {
      if (i >= count) return;
      auto v = value(args[i]);
      if (!v.t.is_integer())
        fail("D_PROTO_ARG", name + "( ) increment value (argument #" + std::to_string(i + 1) +
                                ") must be of scalar type",
             args[i]->where);
      st.args.push_back(std::move(v));
    };
    const auto constant = [&](std::size_t i, const std::string& tag, const std::string& message) {
      auto v = value(args[i]);
      if (v.kind != kind_t::constant) fail(tag, message, args[i]->where);
      return v.value;
    };
    try {
      if (name == "count") {
        if (count != 0) mismatch(0, "");
        return agg::function::of(Count{});
      }
      if (name == "quantize") {
        if (count == 0) mismatch(1, "at least ");
        if (count > 2) mismatch(2, "at most ");
        scalar_value(0);
        increment(1);
        return agg::function::of(Quantize{});
      }
      if (name == "lquantize") {
        if (count < 3) mismatch(3, "at least ");
        if (count > 5) mismatch(5, "at most ");
        scalar_value(0);
        const auto base = constant(1, "D_LQUANT_BASETYPE", "lquantize( ) argument #1 must be an integer constant");
        const auto limit = constant(2, "D_LQUANT_LIMTYPE", "lquantize( ) argument #2 must be an integer constant");
        const auto step = count > 3 ? constant(3, "D_LQUANT_STEPTYPE", "lquantize( ) argument #3 must be a non-zero positive integer constant") : 1;
        increment(4);
        return agg::function::of(LQuantize(base, limit, step));
      }
      if (name == "llquantize") {
        if (count < 5) mismatch(5, "at least ");
        if (count > 6) mismatch(6, "at most ");
        scalar_value(0);
        const char* const tags[] = {"D_LLQUANT_FACTORTYPE", "D_LLQUANT_LMAGTYPE", "D_LLQUANT_HMAGTYPE", "D_LLQUANT_STEPTYPE"};
        std::int64_t p[4];
        for (int i = 0; i < 4; ++i)
          p[i] = constant(static_cast<std::size_t>(i + 1), tags[i],
                          "llquantize( ) argument #" + std::to_string(i + 1) + " must be an integer constant");
        increment(5);
        return agg::function::of(LLQuantize(p[0], p[1], p[2], p[3]));
      }
      // sum, min, max, avg, stddev
      if (count != 1) mismatch(1, "");
      scalar_value(0);
      if (name == "sum") return agg::function::of(Sum{});
      if (name == "min") return agg::function::of(Min{});
      if (name == "max") return agg::function::of(Max{});
      if (name == "avg") return agg::function::of(Avg{});
      return agg::function::of(StdDev{});
    } catch (const agg::param_error& e) {
      fail(e.tag(), e.what(), call->where);
    }
  }

  // The key type an aggregation keeps a key of D type t as.
  agg::key_type key_type_of(const type& t) const {
    using c = agg::key_type::category;
    if (t.is_string()) return {c::string, options_.strsize, false};
    if (t.is_stack()) return {t.kind == type::category::stack ? c::stack : c::ustack, t.size, false};
    return {c::integer, t.size, t.is_signed};
  }

  // stack(frames) and ustack(frames, strsize): an action, or a value that a key or %k takes.
  // `frames` defaults to the stackframes / ustackframes option. dtpp has no ustack helpers, so
  // strsize is checked but no string table is kept.
  expr stack_call(const std::string& name, const ast::node_ptr& n) {
    const std::vector<ast::node_ptr> args(n->kids.begin() + 1, n->kids.end());
    const bool user = name == "ustack";
    const std::size_t most = user ? 2 : 1;
    if (args.size() > most) prototype_mismatch(name, args.size(), most, "at most ", n->where);
    auto frames = std::min(user ? options_.ustackframes : options_.stackframes, options_.maxframes);
    for (std::size_t i = 0; i < args.size(); ++i) {
      const auto v = value(args[i]);
      if (!v.t.is_integer())
        fail("D_PROTO_ARG", name + "( ) argument #" + std::to_string(i + 1) +
                                " is incompatible with prototype:\n\tprototype: uint32_t\n\t argument: " + v.t.name,
             args[i]->where);
      if (i == 0 && (v.kind != kind_t::constant || v.value <= 0))
        fail(user ? "D_USTACK_FRAMES" : "D_STACK_SIZE", name + "( ) argument #1 must be a non-zero positive integer constant",
             args[i]->where);
      if (i == 1 && (v.kind != kind_t::constant || v.value < 0))
        fail("D_USTACK_STRSIZE", "ustack( ) argument #2 must be a positive integer constant", args[i]->where);
      if (i == 0) frames = static_cast<std::uint32_t>(std::min<std::int64_t>(v.value, options_.maxframes));
    }
    expr e;
    e.kind = kind_t::call;
    e.function = user ? ir::subroutine::ustack : ir::subroutine::stack;
    e.where = n->where;
    e.t = {user ? type::category::ustack : type::category::stack, (frames + (user ? 1 : 0)) * 8, false, "stack"};
    return e;
  }

  // A value, or a stack: stack() and ustack() are values only as aggregation keys and as the
  // arguments of trace() and printf(); elsewhere they are actions, of type void.
  expr value_or_stack(const ast::node_ptr& n) {
    if (n->kind == ast::node_kind::call && n->kids[0]->kind == ast::node_kind::identifier &&
        (n->kids[0]->text == "stack" || n->kids[0]->text == "ustack"))
      return stack_call(n->kids[0]->text, n);
    return value(n);
  }

  // Actions: returns false when `name` is not one.
  bool action_call(const std::string& name, const ast::node_ptr& n, ir::statement& st) {
    const std::vector<ast::node_ptr> args(n->kids.begin() + 1, n->kids.end());
    const auto count = args.size();
    const auto mismatch = [&](std::size_t expected, const char* qualifier) {
      prototype_mismatch(name, count, expected, qualifier, n->where);
    };
    const auto incompatible = [&](std::size_t i, const std::string& prototype, const std::string& got,
                                  const std::string& tag = "D_PROTO_ARG") {
      fail(tag, name + "( ) argument #" + std::to_string(i + 1) +
                    " is incompatible with prototype:\n\tprototype: " + prototype +
                    "\n\t argument: " + got,
           args[i]->where);
    };
    const auto record_of = [&](const expr& e) {
      return ir::record{e.t, 0, e.t.is_string() ? options_.strsize : e.t.size};
    };
    // The type name DTrace shows for an argument that is not what the action takes.
    const auto type_name = [&](std::size_t i) -> std::string {
      const auto& a = args[i];
      if (a->kind == ast::node_kind::aggregation) return "aggregation";
      if (a->kind == ast::node_kind::index && a->kids[0]->kind == ast::node_kind::aggregation)
        return "aggregation element";
      if (a->kind == ast::node_kind::call && a->kids[0]->kind == ast::node_kind::identifier &&
          is_aggregating_function(a->kids[0]->text))
        return "void";
      return value(a).t.name;
    };
    const auto integer_arg = [&](std::size_t i, const type& prototype) {
      if (args[i]->kind == ast::node_kind::aggregation) incompatible(i, prototype.name, "aggregation");
      auto v = value(args[i]);
      if (!v.t.is_integer()) incompatible(i, prototype.name, v.t.name);
      return cast_to(std::move(v), prototype);
    };
    const auto aggregation_arg = [&](std::size_t i, const std::string& tag) -> std::uint32_t {
      if (args[i]->kind != ast::node_kind::aggregation) incompatible(i, "aggregation", type_name(i), tag);
      const auto it = aggregation_ids_.find(args[i]->text);
      if (it == aggregation_ids_.end())
        fail(tag == "D_PRINTA_AGGARG" ? "D_PRINTA_AGGBAD" : tag.substr(0, tag.find("_AGGARG")) + "_AGGBAD",
             "undefined aggregation: @" + aggregation_name(args[i]->text), args[i]->where);
      return it->second;
    };

    if (name == "trace") {
      if (count != 1) mismatch(1, "");
      if (args[0]->kind == ast::node_kind::aggregation)
        fail("D_TRACE_DYN", "trace( ) may not be applied to a dynamic expression", args[0]->where);
      auto v = value_or_stack(args[0]);
      if (v.t.is_void()) fail("D_TRACE_VOID", "trace( ) may not be applied to a void expression", args[0]->where);
      st.kind = ir::action::trace;
      st.records.push_back(record_of(v));
      st.args.push_back(std::move(v));
      return true;
    }
    if (name == "exit") {
      if (count != 1) mismatch(1, "");
      st.kind = ir::action::exit;
      st.args.push_back(integer_arg(0, int_type()));
      st.records.push_back({int_type(), 0, 4});
      return true;
    }
    if (name == "printf") {
      if (count == 0) mismatch(1, "at least ");
      st.kind = ir::action::printf;
      format(name, args, 0, st);
      return true;
    }
    if (name == "printa") {
      if (count == 0) mismatch(1, "at least ");
      std::size_t first = 0;
      if (args[0]->kind == ast::node_kind::string) {
        st.format = args[0]->text;
        st.has_format = true;
        first = 1;
        if (count == 1)
          fail("D_PRINTA_PROTO", "printa( ) prototype mismatch: 1 args passed, 2 expected", n->where);
      }
      st.kind = ir::action::printa;
      for (std::size_t i = first; i < count; ++i) {
        st.aggregations.push_back(aggregation_arg(i, "D_PRINTA_AGGARG"));
        st.records.push_back({integer_type("uint32_t", 4, false), 0, 4});
      }
      // Joined aggregations need matching keys.
      const auto& first_desc = result_.program.aggregations[st.aggregations[0] - 1];
      for (std::size_t i = 1; i < st.aggregations.size(); ++i) {
        const auto& d = result_.program.aggregations[st.aggregations[i] - 1];
        const auto keys_word = [](std::size_t n) { return n == 1 ? " key" : " keys"; };
        if (d.keys.size() != first_desc.keys.size())
          fail("D_PRINTA_AGGKEY",
               "printa( ): @" + aggregation_name(first_desc.name) + " and @" + aggregation_name(d.name) +
                   " do not have matching key signatures: @" + aggregation_name(first_desc.name) +
                   " has " + std::to_string(first_desc.keys.size()) + keys_word(first_desc.keys.size()) +
                   ", @" + aggregation_name(d.name) + " has " + std::to_string(d.keys.size()) +
                   keys_word(d.keys.size()),
               args[first + i]->where);
        for (std::size_t k = 0; k < d.keys.size(); ++k)
          if (d.keys[k].kind != first_desc.keys[k].kind) {
            const auto& pa = aggregation_key_types_[st.aggregations[0] - 1][k];
            const auto& pb = aggregation_key_types_[st.aggregations[i] - 1][k];
            const auto pad = [](const std::string& s) { return std::string(s.size() < 9 ? 9 - s.size() : 0, ' ') + s; };
            fail("D_PRINTA_AGGPROTO",
                 "printa( ): @" + aggregation_name(d.name) + "[ ] key #" + std::to_string(k + 1) +
                     " is incompatible with @" + aggregation_name(first_desc.name) + ":\n" +
                     pad(aggregation_name(first_desc.name)) + " key #" + std::to_string(k + 1) + ": " +
                     pa.name + "\n" + pad(aggregation_name(d.name)) + " key #" + std::to_string(k + 1) +
                     ": " + pb.name,
                 args[first + i]->where);
          }
      }
      if (st.has_format) validate_printa_format(st, n);
      return true;
    }
    if (name == "clear" || name == "denormalize") {
      if (count != 1) mismatch(1, "");
      st.kind = name == "clear" ? ir::action::clear : ir::action::denormalize;
      st.aggregation = aggregation_arg(0, name == "clear" ? "D_CLEAR_AGGARG" : "D_NORMALIZE_AGGARG");
      st.records.push_back({integer_type("uint32_t", 4, false), 0, 4});
      return true;
    }
    if (name == "trunc") {
      if (count == 0 || count > 2) mismatch(count == 0 ? 1 : 2, count == 0 ? "at least " : "at most ");
      st.kind = ir::action::trunc;
      st.aggregation = aggregation_arg(0, "D_TRUNC_AGGARG");
      st.records.push_back({integer_type("uint32_t", 4, false), 0, 4});
      if (count == 2) {
        st.args.push_back(integer_arg(1, integer_type("int64_t", 8, true)));
        st.records.push_back({st.args.back().t, 0, 8});
      }
      return true;
    }
    if (name == "normalize") {
      if (count != 2) mismatch(2, "");
      st.kind = ir::action::normalize;
      st.aggregation = aggregation_arg(0, "D_NORMALIZE_AGGARG");
      st.args.push_back(integer_arg(1, integer_type("uint64_t", 8, false)));
      st.records.push_back({integer_type("uint32_t", 4, false), 0, 4});
      st.records.push_back({st.args.back().t, 0, 8});
      return true;
    }
    if (name == "setopt") {
      if (count == 0 || count > 2) mismatch(count == 0 ? 1 : 2, count == 0 ? "at least " : "at most ");
      for (std::size_t i = 0; i < count; ++i)
        if (args[i]->kind != ast::node_kind::string) incompatible(i, "string constant", value(args[i]).t.name);
      st.kind = ir::action::setopt;
      st.format = args[0]->text;
      if (count == 2) st.args.push_back(value(args[1]));
      return true;
    }
    if (name == "stack" || name == "ustack") {
      st.kind = name == "stack" ? ir::action::stack : ir::action::ustack;
      auto e = stack_call(name, n);
      st.records.push_back({e.t, 0, e.t.size});
      st.args.push_back(std::move(e));
      return true;
    }
    for (const char* s : {"speculate", "commit", "discard"})
      if (name == s)
        fail("D_UNKNOWN", name + "( ) is not supported yet: dtpp has no speculative tracing", n->where);
    for (const char* s : {"breakpoint", "chill", "panic", "stop", "raise", "system", "copyout", "copyoutstr", "tracemem", "jstack", "print"})
      if (name == s)
        fail("D_UNKNOWN", name + "( ) is not supported yet", n->where);
    return false;
  }

  // ---- printf formats ------------------------------------------------------------------------

  // Parses a printf / printa format once into the statement, refusing what DTrace refuses.
  void parse_format(ir::statement& st, const std::string& fn, ast::span where) {
    st.parsed_format = print::format::parse(st.format);
    if (const auto& e = st.parsed_format.error())
      fail("D_SYNTAX", "format conversion #" + std::to_string(e->number) + " " + e->why, where);
    if (fn != "printa")
      for (const auto& piece : st.parsed_format.pieces())
        if (piece.conv && piece.conv->aggregation)
          fail("D_PRINTF_AGG_CONV", "%@ conversion requires an aggregation and is not for use with " + fn + "( )", where);
  }

  // Whether a value of type t fits a conversion, by DTrace's table.
  static bool accepts(const print::conversion& c, const type& t) {
    switch (c.info->accepts) {
      case print::conversion_argument::integer: return t.is_integer();
      case print::conversion_argument::small_integer: return t.is_integer() && t.size <= 4;
      case print::conversion_argument::time: return t.is_integer() && t.size == 8;
      case print::conversion_argument::string: return t.is_string();
      case print::conversion_argument::stack: return t.is_stack();
      case print::conversion_argument::wide_string:
      case print::conversion_argument::floating: return false;  // D makes neither
    }
    return false;
  }

  void format(const std::string& fn, const std::vector<ast::node_ptr>& args, std::size_t first,
              ir::statement& st) {
    if (args[first]->kind != ast::node_kind::string) {
      // A string that is not a constant has its own tag.
      const auto t = value(args[first]).t;
      fail(t.is_string() ? "D_PRINTF_ARG_FMT" : "D_PROTO_ARG",
           fn + "( ) argument #1 is incompatible with prototype:\n\tprototype: " +
               (t.is_string() ? "string constant" : "string") + "\n\t argument: " + t.name,
           args[first]->where);
    }
    st.format = args[first]->text;
    st.has_format = true;
    if (st.format.empty())
      fail("D_PRINTF_FMT_EMPTY", fn + "( ) format string is empty", args[first]->where);
    parse_format(st, fn, args[first]->where);
    std::size_t next = first + 1;
    for (const auto& piece : st.parsed_format.pieces()) {
      if (!piece.conv) continue;
      const auto& c = *piece.conv;
      const auto number = std::to_string(c.number);
      const auto take = [&](const std::string& what) -> expr {
        if (next >= args.size())
          fail(what == "value " ? "D_PRINTF_ARG_PROTO" : "D_PRINTF_DYN_PROTO",
               fn + "( ) prototype mismatch: conversion #" + number + " (%" + c.name +
                   ") is missing a corresponding " + what + "argument",
               st.where);
        if (args[next]->kind == ast::node_kind::aggregation)
          fail("D_PRINTF_ARG_TYPE", fn + "( ) argument #" + std::to_string(next + 1) +
                                        " is incompatible with conversion #" + number +
                                        " prototype:\n\tconversion: %" + c.name + "\n\t prototype: " +
                                        std::string(c.info->prototype) + "\n\t  argument: aggregation",
               args[next]->where);
        return value_or_stack(args[next++]);
      };
      for (int star = 0; star < int(c.dynamic_width) + int(c.dynamic_precision); ++star) {
        const std::string which = star == 0 && c.dynamic_width ? "*" : ".*";
        auto w = take("\"" + which + "\" ");
        if (!w.t.is_integer())
          fail("D_PRINTF_DYN_TYPE", fn + "( ) argument #" + std::to_string(next) +
                                        " is incompatible with conversion #" + number +
                                        " prototype:\n\tconversion: % " + which + " " + c.name +
                                        "\n\t prototype: int\n\t  argument: " + w.t.name,
               args[next - 1]->where);
        st.records.push_back({w.t, 0, w.t.size});
        st.args.push_back(std::move(w));
      }
      auto v = take("value ");
      if (!accepts(c, v.t))
        fail("D_PRINTF_ARG_TYPE", fn + "( ) argument #" + std::to_string(next) +
                                      " is incompatible with conversion #" + number +
                                      " prototype:\n\tconversion: %" + c.name + "\n\t prototype: " +
                                      std::string(c.info->prototype) + "\n\t  argument: " + v.t.name,
             args[next - 1]->where);
      st.records.push_back({v.t, 0, v.t.is_string() ? options_.strsize : v.t.size});
      st.args.push_back(std::move(v));
    }
    if (next < args.size())
      fail("D_PRINTF_ARG_EXTRA", fn + "( ) prototype mismatch: only " + std::to_string(next - first - 1) +
                                     " arguments required by this format string",
           args[next]->where);
  }

  // printa's format: key conversions take the keys in order, %@ the aggregations.
  void validate_printa_format(ir::statement& st, const ast::node_ptr& n) {
    parse_format(st, "printa", n->kids[1]->where);
    const auto& keys = aggregation_key_types_[st.aggregations[0] - 1];
    std::size_t key = 0;
    for (const auto& piece : st.parsed_format.pieces()) {
      if (!piece.conv || piece.conv->aggregation) continue;
      const auto& c = *piece.conv;
      const auto number = std::to_string(c.number);
      for (int star = 0; star < int(c.dynamic_width) + int(c.dynamic_precision) + 1; ++star) {
        if (key >= keys.size())
          fail("D_PRINTF_ARG_PROTO", "printa( ) prototype mismatch: conversion #" + number +
                                         " (%" + c.name + ") is missing a corresponding value argument",
               n->kids[1]->where);
        const auto& t = keys[key++];
        const bool is_value = star == int(c.dynamic_width) + int(c.dynamic_precision);
        if (is_value ? !accepts(c, t) : !t.is_integer())
          fail("D_PRINTF_ARG_TYPE", "printa( ) argument #" + std::to_string(key + 1) +
                                        " is incompatible with conversion #" + number +
                                        " prototype:\n\tconversion: %" + c.name + "\n\t prototype: " +
                                        std::string(c.info->prototype) + "\n\t  argument: " + t.name,
               n->kids[1]->where);
      }
    }
  }

  // ---- expressions ---------------------------------------------------------------------------

  std::optional<std::string> macro_value(const std::string& name) {
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

  expr macro(const ast::node_ptr& n) {
    const bool as_string = n->text.size() > 1 && n->text[1] == '$';
    const auto name = n->text.substr(as_string ? 2 : 1);
    const bool is_argument = std::isdigit(static_cast<unsigned char>(name[0]));
    auto v = macro_value(name);
    if (!v) {
      if (is_argument && options_.defaultargs) v = as_string ? "" : "0";
      else
        fail("D_MACRO_UNDEF", std::string(is_argument ? "macro argument " : "macro variable ") +
                                  n->text + " is not defined",
             n->where);
    }
    if (as_string) return string_constant(*v, n->where);
    // $N: an integer when it reads as one, else an identifier, else a string.
    const auto& text = *v;
    errno = 0;
    char* end = nullptr;
    const bool negative = !text.empty() && text[0] == '-';
    const auto magnitude = std::strtoull(text.c_str() + (negative || (!text.empty() && text[0] == '+')), &end, 0);
    if (!text.empty() && *end == '\0' && errno == 0 && (std::isdigit(static_cast<unsigned char>(text[negative || text[0] == '+'])))) {
      auto e = integer_constant(magnitude, false, false, n->where);
      if (negative) e.value = ir::fit(-e.value, e.t);
      return e;
    }
    if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
      return identifier(text, n->where);
    std::string s = text;
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return string_constant(s, n->where);
  }

  expr string_constant(std::string s, ast::span where) {
    expr e;
    e.kind = kind_t::string;
    e.t = {type::category::string, options_.strsize, false, "string"};
    e.text = std::move(s);
    e.where = where;
    return e;
  }

  // D's choice of type for a constant: the first of its candidate types that holds it.
  expr integer_constant(std::uint64_t v, bool decimal_or_lower_u_suffix, bool unused, ast::span where,
                        int start = 0, bool step_two = true) {
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

  expr integer_literal(const ast::node_ptr& n) {
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

  expr character_literal(const ast::node_ptr& n) {
    if (n->text.empty()) fail("D_CHR_NULL", "empty character constant", n->where);
    if (n->text.size() > 8) fail("D_CHR_OFLOW", "character constant is too long", n->where);
    std::uint64_t v = 0;
    for (unsigned char c : n->text) v = v << 8 | c;
    auto e = integer_constant(v, true, false, n->where);
    if (n->text.size() == 1) {
      e.t = integer_type("char", 1, true);
      e.value = static_cast<std::int8_t>(static_cast<std::uint8_t>(v));
    }
    return e;
  }

  expr identifier(const std::string& name, ast::span where) {
    if (const auto it = inlines_.find(name); it != inlines_.end()) {
      const auto& [t, node] = it->second;
      auto e = t.is_string() ? value(node) : cast_to(value(node), t);
      e.where = where;
      return e;
    }
    if (name.size() == 4 && name.rfind("arg", 0) == 0 && std::isdigit(static_cast<unsigned char>(name[3]))) {
      expr e;
      e.kind = kind_t::builtin;
      e.index = static_cast<std::uint32_t>(ir::builtin::arg);
      e.value = name[3] - '0';
      e.t = integer_type("int64_t", 8, true);
      e.where = where;
      return e;
    }
    for (const auto& b : builtins())
      if (name == b.name) {
        expr e;
        e.kind = kind_t::builtin;
        e.index = static_cast<std::uint32_t>(b.id);
        e.t = b.t;
        if (e.t.is_string()) e.t.size = options_.strsize;
        e.text = name;
        e.where = where;
        return e;
      }
    const auto it = globals_.find(name);
    if (it == globals_.end())
      fail("D_IDENT_UNDEF", "failed to resolve " + name + ": Unknown variable name", where);
    return variable_ref(it->second, where);
  }

  expr variable_ref(std::uint32_t id, ast::span where) {
    const auto& v = result_.program.variables[id];
    expr e;
    e.kind = kind_t::variable;
    e.index = id;
    e.t = v.value;
    e.text = v.name;
    e.where = where;
    return e;
  }

  std::uint32_t new_variable(std::string name, ir::scope s, type t, std::vector<type> keys = {}) {
    const auto id = static_cast<std::uint32_t>(result_.program.variables.size());
    result_.program.variables.push_back({id, std::move(name), s, std::move(t), std::move(keys)});
    return id;
  }

  static std::string op_message(const std::string& op, const char* what) { return "operator " + op + " " + what; }

  expr cast_to(expr e, const type& t) {
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

  // Folds an integer operation on constants as DTrace folds them while parsing: in 64 bits, the
  // type (t: its signedness) following C's rules but the value not narrowed to it; stores, casts
  // and records narrow it.
  static std::optional<std::int64_t> fold(ir::op op, std::int64_t a, std::int64_t b, const type& t) {
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
  static std::int64_t fold(ir::op op, std::int64_t v) {
    if (op == ir::op::negate) return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v));
    if (op == ir::op::complement) return ~v;
    if (op == ir::op::logical_not) return v == 0;
    return v;  // plus
  }

  expr value(const ast::node_ptr& n) {
    switch (n->kind) {
      case ast::node_kind::integer: return integer_literal(n);
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
      case ast::node_kind::sizeof_type: {
        const auto t = named_type(n->text, options_.strsize);
        if (!t) fail("D_UNKNOWN", "failed to resolve type " + n->text, n->where);
        return sized(t->is_string() ? options_.strsize : t->size, n->where);
      }
      case ast::node_kind::sizeof_expr: {
        const auto v = value(n->kids[0]);
        return sized(v.t.is_string() ? options_.strsize : v.t.size, n->where);
      }
      case ast::node_kind::stringof: {
        auto v = value(n->kids[0]);
        if (v.t.is_void()) fail("D_STRINGOF_TYPE", "cannot apply stringof to a value of type void", n->where);
        if (v.t.is_string()) return v;
        expr e;
        e.kind = kind_t::stringof;
        e.t = {type::category::string, options_.strsize, false, "string"};
        e.kids.push_back(std::move(v));
        e.where = n->where;
        return e;
      }
    }
    fail("D_UNKNOWN", "internal error: unknown expression", n->where);
  }

  expr sized(std::uint64_t size, ast::span where) {
    expr e;
    e.kind = kind_t::constant;
    e.t = integer_type("size_t", 8, false);
    e.value = static_cast<std::int64_t>(size);
    e.where = where;
    return e;
  }

  // self->x, this->x. `assigned` is the value's type when the member is being assigned.
  expr member(const ast::node_ptr& n, const type* assigned) {
    const auto& base = n->kids[0];
    if (n->text != "->" || base->kind != ast::node_kind::identifier || (base->text != "self" && base->text != "this"))
      fail("D_UNKNOWN", "structure and pointer member access is not supported yet", n->where);
    const bool thread = base->text == "self";
    auto& table = thread ? thread_locals_ : clause_locals_;
    const auto prefix = base->text + "->";
    auto it = table.find(n->name);
    if (it == table.end() && !thread) {
      // A `this` variable declared outside the clauses is every clause's.
      const auto declared = declared_clause_locals_.find(n->name);
      if (declared != declared_clause_locals_.end()) it = table.emplace(n->name, declared->second).first;
    }
    if (it == table.end()) {
      if (!assigned)
        fail("D_VAR_UNDEF", prefix + n->name + " has not yet been declared or assigned", n->where);
      const auto id = new_variable(prefix + n->name, thread ? ir::scope::thread : ir::scope::clause, *assigned);
      it = table.emplace(n->name, id).first;
    }
    return variable_ref(it->second, n->where);
  }

  // args[N], and associative arrays a[k...] (created by assignment).
  expr index(const ast::node_ptr& n, const type* assigned) {
    const auto& base = n->kids[0];
    if (base->kind == ast::node_kind::aggregation)
      fail("D_OP_INCOMPAT", "operands have incompatible types: \"aggregation\" [ ] \"" + std::string("int") + "\"", n->where);
    const bool thread_array = base->kind == ast::node_kind::member && base->text == "->" &&
                              base->kids[0]->kind == ast::node_kind::identifier &&
                              base->kids[0]->text == "self";
    if (base->kind != ast::node_kind::identifier && !thread_array)
      fail("D_UNKNOWN", "indexing this expression is not supported yet", n->where);
    if (base->text == "args") {
      if (n->kids.size() != 2)
        fail("D_PROTO_LEN", "args[ ] prototype mismatch: " + std::to_string(n->kids.size() - 1) + " args passed, 1 expected", n->where);
      auto i = value(n->kids[1]);
      if (i.kind != kind_t::constant) fail("D_ARGS_IDX", "args[ ] index must be an integer constant", n->kids[1]->where);
      expr e;
      e.kind = kind_t::builtin;
      e.index = static_cast<std::uint32_t>(ir::builtin::arg);
      e.value = i.value;
      e.t = integer_type("int64_t", 8, true);
      e.where = n->where;
      return e;
    }
    std::vector<expr> keys;
    for (std::size_t i = 1; i < n->kids.size(); ++i) {
      keys.push_back(value(n->kids[i]));
      if (!keys.back().t.is_integer() && !keys.back().t.is_string())
        fail("D_KEY_TYPE", keys.back().t.name + " expression may not be used as associative array index: key #" + std::to_string(i), n->kids[i]->where);
    }
    auto& table = thread_array ? thread_locals_ : globals_;
    const auto name = thread_array ? base->name : base->text;
    const auto shown = thread_array ? "self->" + name : name;
    auto it = table.find(name);
    if (it == table.end()) {
      if (!assigned) {
        if (thread_array) fail("D_VAR_UNDEF", shown + " has not yet been declared or assigned", base->where);
        fail("D_IDENT_UNDEF", "failed to resolve " + shown + ": Unknown variable name", base->where);
      }
      std::vector<type> key_types;
      for (const auto& k : keys) key_types.push_back(k.t);
      it = table.emplace(name, new_variable(shown, thread_array ? ir::scope::thread : ir::scope::global, *assigned, key_types)).first;
    }
    const auto& var = result_.program.variables[it->second];
    if (var.keys.size() != keys.size())
      fail("D_PROTO_LEN", shown + "[ ] prototype mismatch: " + std::to_string(keys.size()) +
                              (keys.size() == 1 ? " key" : " keys") + " passed, " + std::to_string(var.keys.size()) + " expected",
           n->where);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (var.keys[i].is_string() != keys[i].t.is_string())
        fail("D_PROTO_ARG", shown + "[ ] key #" + std::to_string(i + 1) + " is incompatible with prototype:\n\tprototype: " +
                                var.keys[i].name + "\n\t      key: " + keys[i].t.name,
             n->kids[i + 1]->where);
      keys[i] = cast_to(std::move(keys[i]), var.keys[i]);
    }
    auto e = variable_ref(it->second, n->where);
    e.kids = std::move(keys);
    return e;
  }

  struct subroutine { ir::subroutine id; const char* result; std::vector<const char*> params; std::size_t required; };
  expr call(const ast::node_ptr& n) {
    const auto& callee = n->kids[0];
    if (callee->kind != ast::node_kind::identifier)
      fail("D_FUNC_IDENT", "function designator is not of function type", callee->where);
    const auto& name = callee->text;
    using id = ir::subroutine;
    static const subroutine table[] = {
        {id::strlen, "size_t", {"string"}, 1},          {id::strjoin, "string", {"string", "string"}, 2},
        {id::substr, "string", {"string", "int", "int"}, 2}, {id::strchr, "string", {"string", "char"}, 2},
        {id::strrchr, "string", {"string", "char"}, 2}, {id::strstr, "string", {"string", "string"}, 2},
        {id::strtok, "string", {"string", "string"}, 2}, {id::index, "int", {"string", "string", "int"}, 2},
        {id::rindex, "int", {"string", "string", "int"}, 2}, {id::lltostr, "string", {"int64_t"}, 1},
        {id::copyinstr, "string", {"uintptr_t", "size_t"}, 1}, {id::basename, "string", {"string"}, 1},
        {id::dirname, "string", {"string"}, 1},         {id::rand, "int", {}, 0},
        {id::progenyof, "int", {"pid_t"}, 1}};
    const subroutine* s = nullptr;
    for (const auto& entry : table)
      if (name == ir::name(entry.id)) s = &entry;
    if (!s) {
      if (is_aggregating_function(name))
        fail("D_CG_EXPR", "aggregating function " + name + "( ) may not be called from a D expression (D program context required)", n->where);
      for (const char* s : {"speculate", "commit", "discard", "speculation"})
        if (name == s)
          fail("D_UNKNOWN", name + "( ) is not supported yet: dtpp has no speculative tracing", n->where);
      // An action used as a value has type void: the context reports what it cannot take.
      for (const char* a : {"trace", "printf", "printa", "exit", "clear", "trunc", "normalize", "denormalize", "setopt", "stack", "ustack"})
        if (name == a) {
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
      auto a = value(n->kids[i + 1]);
      const auto want = *named_type(s->params[i], options_.strsize);
      if (want.is_string() != a.t.is_string() || a.t.is_void())
        fail("D_PROTO_ARG", name + "( ) argument #" + std::to_string(i + 1) + " is incompatible with prototype:\n\tprototype: " +
                                (want.is_string() ? std::string("char *") : want.name) + "\n\t argument: " + a.t.name,
             n->kids[i + 1]->where);
      e.kids.push_back(want.is_string() ? std::move(a) : cast_to(std::move(a), want));
    }
    e.t = *named_type(s->result, options_.strsize);
    return e;
  }

  expr prefix(const ast::node_ptr& n) {
    const auto& op = n->text;
    if (op == "++" || op == "--") return increment(n, true);
    if (op == "*" || op == "&")
      fail("D_UNKNOWN", "operator " + op + " on pointers is not supported yet", n->where);
    auto v = value(n->kids[0]);
    if (op == "!") {
      if (!v.t.is_integer() && !v.t.is_string()) fail("D_OP_SCALAR", op_message(op, "requires an operand of scalar type"), n->where);
    } else if (!v.t.is_integer()) {
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

  static bool is_lvalue_kind(const ast::node_ptr& n) {
    return n->kind == ast::node_kind::identifier || n->kind == ast::node_kind::member ||
           (n->kind == ast::node_kind::index && n->kids[0]->kind == ast::node_kind::identifier && n->kids[0]->text != "args") ||
           (n->kind == ast::node_kind::index && n->kids[0]->kind == ast::node_kind::member);
  }

  expr lvalue(const ast::node_ptr& n, const std::string& op, const type* assigned) {
    if (!is_lvalue_kind(n))
      fail("D_OP_LVAL", op_message(op, "requires modifiable lvalue as an operand"), n->where);
    if (n->kind == ast::node_kind::member) return member(n, assigned);
    if (n->kind == ast::node_kind::index) return index(n, assigned);
    const auto& name = n->text;
    const bool is_builtin = (name.size() == 4 && name.rfind("arg", 0) == 0) ||
                            std::any_of(builtins().begin(), builtins().end(),
                                        [&](const builtin_info& b) { return name == b.name; });
    if (is_builtin) fail("D_OP_LVAL", op_message(op, "requires modifiable lvalue as an operand"), n->where);
    auto it = globals_.find(name);
    if (it == globals_.end()) {
      if (!assigned) fail("D_IDENT_UNDEF", "failed to resolve " + name + ": Unknown variable name", n->where);
      it = globals_.emplace(name, new_variable(name, ir::scope::global, *assigned)).first;
    }
    return variable_ref(it->second, n->where);
  }

  expr increment(const ast::node_ptr& n, bool is_prefix) {
    // ++ and -- create an int64_t, as libdtrace's dt_cook_op1 does.
    const auto implicit = integer_type("int64_t", 8, true);
    auto target = lvalue(n->kids[0], n->text, &implicit);
    if (!target.t.is_integer()) fail("D_OP_SCALAR", op_message(n->text, "requires operand of scalar type"), n->where);
    expr e;
    e.kind = kind_t::increment;
    e.operation = n->text == "++" ? ir::op::increment : ir::op::decrement;
    e.value = is_prefix;
    e.t = target.t;
    e.where = n->where;
    e.kids.push_back(std::move(target));
    return e;
  }

  expr assign(const ast::node_ptr& n) {
    const auto& op = n->text;
    if (n->kids[0]->kind == ast::node_kind::aggregation || (n->kids[0]->kind == ast::node_kind::index && n->kids[0]->kids[0]->kind == ast::node_kind::aggregation))
      fail("D_AGG_FUNC", "@" + aggregation_name(aggregation_node(n->kids[0])->text) + " must be assigned the result of an aggregating function", n->where);
    auto v = value(n->kids[1]);
    if (v.t.is_void()) fail("D_OP_VOID", "operator " + op + " cannot be applied to a void expression", n->kids[1]->where);
    auto target = lvalue(n->kids[0], op, &v.t);
    if (target.t.is_string() != v.t.is_string())
      fail("D_OP_INCOMPAT", "operands have incompatible types: \"" + target.t.name + "\" " + op + " \"" + v.t.name + "\"", n->where);
    if (op != "=" && !target.t.is_integer())
      fail("D_OP_ARITH", op_message(op, "requires operands of arithmetic type"), n->where);
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

  expr binary(const ast::node_ptr& n) {
    const auto& op = n->text;
    for (const auto& k : n->kids)
      if (k->kind == ast::node_kind::aggregation || (k->kind == ast::node_kind::index && k->kids[0]->kind == ast::node_kind::aggregation)) {
        const auto& other = k == n->kids[0] ? n->kids[1] : n->kids[0];
        const std::string other_type = other->kind == ast::node_kind::aggregation ? "aggregation" : value(other).t.name;
        const std::string left = k == n->kids[0] ? "aggregation" : other_type;
        const std::string right = k == n->kids[0] ? other_type : "aggregation";
        fail("D_OP_INCOMPAT", "operands have incompatible types: \"" + left + "\" " + op + " \"" + right + "\"", n->where);
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
        if (!v->t.is_integer() && !v->t.is_string()) fail("D_OP_SCALAR", op_message(op, "requires operands of scalar type"), n->where);
      e.t = int_type();
    } else if (comparison) {
      if (a.t.is_string() != b.t.is_string() || a.t.is_void() || b.t.is_void())
        fail("D_OP_INCOMPAT", "operands have incompatible types: \"" + a.t.name + "\" " + op + " \"" + b.t.name + "\"", n->where);
      e.t = int_type();
      if (a.t.is_integer()) {
        const auto common = promote(a.t, b.t);
        a = cast_to(std::move(a), common);
        b = cast_to(std::move(b), common);
      }
    } else {
      const bool shift = operation == ir::op::shift_left || operation == ir::op::shift_right;
      const bool integral_only = operation >= ir::op::modulo;  // % & | ^ << >>, by the enum's order
      if (!a.t.is_integer() || !b.t.is_integer())
        fail(integral_only ? "D_OP_INT" : "D_OP_ARITH",
             op_message(op, integral_only ? "requires operands of integral type" : "requires operands of arithmetic type"), n->where);
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

  expr conditional(const ast::node_ptr& n) {
    auto c = value(n->kids[0]);
    if (!c.t.is_integer() && !c.t.is_string()) fail("D_OP_SCALAR", "operator ?: expression must be of scalar type", n->kids[0]->where);
    auto a = value(n->kids[1]);
    auto b = value(n->kids[2]);
    if ((a.kind == kind_t::call && a.t.is_void()) || (b.kind == kind_t::call && b.t.is_void()))
      fail("D_OP_ACT", "action cannot be used in a conditional context", n->where);
    if (a.t.is_string() != b.t.is_string() || a.t.is_void() || b.t.is_void())
      fail("D_OP_INCOMPAT", "operator ?: operands must have compatible types", n->where);
    expr e;
    e.kind = kind_t::conditional;
    e.t = a.t.is_string() ? a.t : promote(a.t, b.t);
    e.where = n->where;
    if (e.t.is_integer()) {
      a = cast_to(std::move(a), e.t);
      b = cast_to(std::move(b), e.t);
    }
    if (c.kind == kind_t::constant) return c.value ? a : b;
    e.kids = {std::move(c), std::move(a), std::move(b)};
    return e;
  }

  expr cast(const ast::node_ptr& n) {
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

  const source_file& source_;
  compile_options options_;
  compile_result result_;
  std::vector<bool> referenced_;
  std::map<std::string, std::uint32_t> globals_, thread_locals_, clause_locals_, declared_clause_locals_;
  std::map<std::string, std::uint32_t> aggregation_ids_;
  std::map<std::string, std::pair<type, ast::node_ptr>> inlines_;  // inline name -> type, expression
  std::vector<std::uint32_t> aggregation_lines_;
  std::vector<std::vector<type>> aggregation_key_types_;
};

}  // namespace detail

compile_result check(const ast::program& program, const source_file& source,
                     const compile_options& options) {
  return detail::checker(source, options).run(program);
}

compile_result compile(const source_file& source, const compile_options& options) {
  auto parsed = parse(source);
  if (!parsed.errors.empty()) return {{}, std::move(parsed.errors)};
  return check(parsed.program, source, options);
}

}  // namespace dtpp::d
