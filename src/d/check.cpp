// The D checker's walk over a program: pragmas, clauses, probe descriptions and statements;
// check() and compile().

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "checker.hpp"
#include "dtpp/d/parser.hpp"

namespace dtpp::d {

namespace detail {
namespace {

// ir::clause's buffer_size and buffer_alignment. A record aligns as its scalar (1, 2, 4 or 8
// bytes), a stack as its 8-byte frames, anything else (strings, arrays, structs) at bytes.
// Assignments and aggregating write nothing; a clause with any other action writes a firing.
void set_buffer_extent(ir::clause& c) {
  constexpr std::uint32_t epid_bytes = 4;
  const auto round_up = [](std::uint32_t n, std::uint32_t a) { return (n + a - 1) / a * a; };
  bool written = c.default_action;
  std::uint32_t size = epid_bytes, alignment = epid_bytes;
  for (const auto& s : c.statements) {
    written |= s.kind != ir::action::expression && s.kind != ir::action::aggregate;
    for (const auto& r : s.records) {
      const bool scalar = (r.t.is_integer() || r.t.is_floating()) && (r.size == 1 || r.size == 2 || r.size == 4 || r.size == 8);
      const std::uint32_t a = r.t.is_stack() ? 8 : scalar ? r.size : 1;
      size = round_up(size, a) + r.size;
      alignment = std::max(alignment, a);
    }
  }
  c.buffer_size = written ? round_up(size, epid_bytes) : 0;
  c.buffer_alignment = alignment;
}

// Whether `text` is one name, number or string constant.
bool is_one_token(std::string_view text) {
  if (text.size() >= 2 && text.front() == '"') return text.find('"', 1) == text.size() - 1;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '`';
  });
}

}  // namespace

compile_result checker::run(const ast::program& program) {
  if (options_.types) options_.types->compile_begins();
  // DTrace's lexer expands macro references: one not defined is reported before anything the
  // checker would find, and alone.
  if (auto undefined = first_undefined_macro(program)) {
    result_.errors.push_back(std::move(*undefined));
    return std::move(result_);
  }
  // Clauses after a variable's declaration that failed would only report errors it caused
  // (`x[...]` of an x not declared), where DTrace reports that one; declarations are still read.
  bool declaration_refused = false;
  for (const auto& item : program.items) {
    const auto reported = result_.errors.size();
    if (const auto* p = std::get_if<ast::pragma>(&item)) pragma(*p);
    else if (const auto* l = std::get_if<ast::library_dependency>(&item)) depend(*l);
    else if (const auto* d = std::get_if<ast::declaration>(&item)) declare(*d);
    else if (const auto* t = std::get_if<ast::type_declaration>(&item)) declare_type(*t);
    else if (const auto* x = std::get_if<ast::translator>(&item)) declare_translator(*x);
    else if (!declaration_refused) clause(std::get<ast::clause>(item));
    declaration_refused |= std::holds_alternative<ast::declaration>(item) && result_.errors.size() > reported;
    // What follows a broken type or translator would only report errors it caused, where DTrace
    // reports that one.
    const bool declares = std::holds_alternative<ast::type_declaration>(item) || std::holds_alternative<ast::translator>(item);
    // A syntax error the grammar lets through for the checker to word (`int i = 0;`) ends the
    // program there, as DTrace's parser stops at one.
    const bool syntax = std::holds_alternative<ast::declaration>(item) && !result_.errors.empty() &&
                        result_.errors.back().tag == "D_SYNTAX";
    if ((declares && !result_.errors.empty()) || syntax || probes_refused_) return std::move(result_);
  }
  result_.program.scratchsize = options_.scratch_bytes();
  // A `#pragma D attributes` whose identifier nothing declared, before or after it, is unused.
  for (const auto& a : program.attributes_pragmas)
    if (result_.errors.empty() && !names_identifier(a.name)) error("D_PRAGMA_UNUSED", "unused #pragma attributes", a.where);
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

std::optional<diagnostic> checker::first_undefined_macro(const ast::program& program) {
  std::optional<diagnostic> first;
  const auto visit = [&](const auto& self, const ast::node_ptr& n) -> void {
    if (!n) return;
    if (n->kind == ast::node_kind::macro && !macro_text(n) && (!first || n->where.begin < first->where.begin))
      first = undefined_macro(n);
    for (const auto& k : n->kids) self(self, k);
  };
  for (const auto& item : program.items) {
    if (const auto* d = std::get_if<ast::declaration>(&item)) visit(visit, d->value);
    if (const auto* c = std::get_if<ast::clause>(&item)) {
      visit(visit, c->predicate);
      for (const auto& s : c->statements) visit(visit, s);
    }
  }
  return first;
}

void checker::error(std::string tag, std::string message, ast::span where) {
  result_.errors.push_back({std::move(tag), std::move(message), where});
}

void checker::fail(std::string tag, std::string message, ast::span where) {
  error(std::move(tag), std::move(message), where);
  throw failed{};
}

void checker::pragma(const ast::pragma& p) {
  const auto* spec = options::find_option(p.name);
  auto why = options::option_error(p.name, p.has_value ? p.value.c_str() : nullptr);
  if (!why && spec && !spec->in_program) why = "Option cannot be used from within a D program";
  if (why) {
    error("D_PRAGMA_OPTSET",
          "failed to set option '" + p.name + (p.has_value ? "' to '" + p.value : "") + "': " +
              std::string(*why),
          p.where);
    return;
  }
  if (p.name == "strsize") options_.strsize = static_cast<std::uint32_t>(*options::parse_size(p.value));
  set_frames_option(options_, p.name, p.value);
  set_bound_option(options_, p.name, p.value);
  if (p.name == "defaultargs") options_.defaultargs = true;
  if (p.name == "argref") options_.argref = true;
  if (p.name == "empty") options_.empty_ok = true;
  if (p.name == "zdefs") options_.zdefs = true;
  result_.program.options.push_back({p.name, p.value});
}

void checker::depend(const ast::library_dependency& l) {
  // The library files are ordered by their dependencies before they are read (library_files());
  // the main program has them all already.
  if (l.where.begin >= options_.library_end)
    error("D_PRAGMA_DEPEND", "main program may not explicitly depend on a library", l.where);
}

void checker::clause(const ast::clause& c) {
  ir::clause out;
  out.id = static_cast<std::uint32_t>(result_.program.clauses.size() + 1);
  out.where = c.where;
  // No statement at all, as no body: DTrace's default action traces the firing itself.
  out.default_action = c.statements.empty();
  for (const auto& d : c.probes) {
    try {
      out.probes.push_back(probe(d));
    } catch (const failed&) {
    }
  }
  // DTrace matches a clause's probe descriptions before it checks the clause (dt_setcontext), and
  // stops there: one naming probes that the kernel cannot serve is refused with the reason,
  // whatever this clause or a later one holds.
  for (const auto& p : out.probes) {
    const auto why = options_.types && !options_.zdefs ? options_.types->unavailable(p) : std::nullopt;
    if (!why) continue;
    error("D_PDESC_ZERO", *why, p.where);
    probes_refused_ = true;
    return;
  }
  clause_probes_ = &out.probes;
  clause_arguments_.reset();
  statement_attributes_ = {};
  const auto actions_errors = result_.errors.size();
  const auto check_actions = [&] {
    std::uint32_t offset = 0;
    clause_actions done;
    out.statements.clear();
    for (const auto& s : c.statements) {
      try {
        auto st = statement(s);
        check_order(done, st);
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
    set_buffer_extent(out);
  };
  const auto check_predicate = [&] {
    const auto reported_before = result_.errors.size();
    try {
      // A struct, an array or a string is no scalar (a string is a char array to DTrace), whether
      // or not dtpp could take its value. DTrace names the clause's last line, where it has read
      // the clause whole.
      const auto not_scalar = [&] {
        const auto brace = std::string_view(source_.text()).rfind('}', c.where.end - 1);
        const bool closed = brace != std::string_view::npos && brace >= c.where.begin;
        fail("D_PRED_SCALAR", "predicate result must be of scalar type",
             closed ? ast::span{static_cast<std::uint32_t>(brace), static_cast<std::uint32_t>(brace + 1)} : c.predicate->where);
      };
      auto p = object(c.predicate);
      if (p.t.is_object()) not_scalar();
      p = value_of(std::move(p), c.predicate->where);
      if (!p.t.is_integer()) not_scalar();
      out.predicate = std::move(p);
    } catch (const failed&) {
      // An operator that ends the predicate (`/"a" && "b"/`, `/self->x/`) is reduced once DTrace's
      // parser has the token after it, the `{` its lexer reads on to, and its error names that
      // line; a lone name or constant is reduced without looking ahead.
      if (result_.errors.size() == reported_before) return;
      auto& reported = result_.errors.back().where;
      const auto text = std::string_view(source_.text());
      const auto brace = text.find('{', c.predicate->where.end);
      if (reported.end == c.predicate->where.end && brace != std::string_view::npos &&
          !is_one_token(text.substr(reported.begin, reported.end - reported.begin)))
        reported = {static_cast<std::uint32_t>(brace), static_cast<std::uint32_t>(brace + 1)};
    }
  };
  check_actions();
  // The predicate is checked after the actions, as DTrace cooks them (dt_cook_clause): it may
  // read a variable that only the clause's own actions create (`/n == 0/ { n = 1; }`). Its
  // errors are still reported in source order, before the actions'. When the actions' first
  // error is a variable not known yet, DTrace tries again with the predicate first, which may
  // create it (`/x++ == 0/ { exit(x); }`).
  const auto first_error_is = [&](std::size_t at, std::string_view tag) {
    return result_.errors.size() > at && result_.errors[at].tag == tag;
  };
  if (c.predicate && (first_error_is(actions_errors, "D_IDENT_UNDEF") || first_error_is(actions_errors, "D_VAR_UNDEF"))) {
    result_.errors.resize(actions_errors);
    check_predicate();
    if (result_.errors.size() == actions_errors) check_actions();  // DTrace stops at the predicate's error
  } else if (c.predicate) {
    const auto predicate_errors = result_.errors.size();
    check_predicate();
    std::rotate(result_.errors.begin() + static_cast<std::ptrdiff_t>(actions_errors),
                result_.errors.begin() + static_cast<std::ptrdiff_t>(predicate_errors), result_.errors.end());
  }
  out.statement_attributes = statement_attributes_;
  for (const auto& p : out.probes)
    out.description_attributes = min(out.description_attributes, description_attributes(p.provider, p.module, p.function, p.name));
  clause_probes_ = nullptr;
  // A clause with errors is kept too, so that later clauses keep their ids (and EPIDs); the
  // errors make the program unusable anyway.
  result_.program.clauses.push_back(std::move(out));
}

// provider:module:function:name, fewer fields meaning the rightmost; macros expanded.
ir::probe checker::probe(const ast::probe_description& d) {
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
  // dtrace-utils reads the fields from the right and stops at the text's start: an empty fifth
  // field before a leading ':' is never read (`::read::` is `:read::`).
  if (fields.size() == 5 && fields[0].empty()) fields.erase(fields.begin());
  if (fields.size() > 4)
    fail("D_PDESC_INVAL",
         "invalid probe description \"" + text + "\": Overspecified probe description", d.where);
  while (fields.size() < 4) fields.insert(fields.begin(), "");
  ir::probe p{fields[0], fields[1], fields[2], fields[3], d.where};
  validate_profile(p);
  return p;
}

// profile-N and tick-N must name a rate DTrace's profile provider offers.
void checker::validate_profile(const ir::probe& p) {
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

// libdtrace's parser refuses a call of anything but a name as it builds the call, before any
// name in the statement is resolved: `@ = tick-1();` is D_FUNC_IDENT, not an unknown `tick`.
void checker::check_callees(const ast::node_ptr& n) {
  if (!n) return;
  if (n->kind == ast::node_kind::call && n->kids[0]->kind != ast::node_kind::identifier)
    fail("D_FUNC_IDENT", "function designator is not of function type", n->kids[0]->where);
  for (const auto& k : n->kids) check_callees(k);
}

ir::statement checker::statement(const ast::node_ptr& n) {
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
  st.args.push_back(n->kind == ast::node_kind::assign ? object(n) : value(n));  // `copy = rec;` has no value
  return st;
}

}  // namespace detail

compile_result check(const ast::program& program, const source_file& source,
                     const compile_options& options) {
  return detail::checker(source, options).run(program);
}

compile_result compile(const source_file& source, const compile_options& options) {
  auto parsed = parse(source, options.script_file, options.pspec);
  if (!parsed.errors.empty()) return {{}, std::move(parsed.errors)};
  return check(parsed.program, source, options);
}

}  // namespace dtpp::d
