// The D checker's class, private to src/d: its member functions are defined by concern in
// check.cpp (the program walk), check_types.cpp, check_expressions.cpp, check_actions.cpp and
// check_formats.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtpp/agg/functions.hpp"
#include "declared_types.hpp"
#include "dtpp/d/check.hpp"

namespace dtpp::d::detail {

using ir::expr;
using ir::type;
using kind_t = ir::expr::kind_t;

inline type integer_type(std::string name, std::uint32_t size, bool is_signed) {
  return {type::category::integer, size, is_signed, std::move(name)};
}
inline type int_type() { return integer_type("int", 4, true); }
// The unsigned integer of `size` bytes (1, 2, 4 or 8): "uint16_t".
inline type unsigned_type(std::uint32_t size) { return integer_type("uint" + std::to_string(size * 8) + "_t", size, false); }
inline type void_type() { return {type::category::void_type, 0, false, "void"}; }

// D's integer type names (LP64), as casts, sizeof and messages use them.
std::optional<type> named_type(std::string name, std::uint32_t strsize);

// The type and (in `value`) the value of a constant D's library declares: NULL, the errno names
// (EIO ...) and the signal names (SIGINT ...) (library.cpp).
std::optional<type> library_constant(std::string_view name, std::int64_t& value);
// The arithmetic conversions on D's integers (DTrace's: no promotion to int).
type promote(const type& a, const type& b);

// Names bound to values for as long as it lives: a translator's parameter while its members are
// checked, an inline array's while its definition is.
class bound_parameters {
 public:
  bound_parameters(std::vector<std::pair<std::string, expr>>& parameters, std::vector<std::pair<std::string, expr>> bound)
      : parameters_(parameters), depth_(parameters.size()) {
    for (auto& b : bound) parameters_.push_back(std::move(b));
  }
  ~bound_parameters() { parameters_.resize(depth_); }
  bound_parameters(const bound_parameters&) = delete;
  bound_parameters& operator=(const bound_parameters&) = delete;

 private:
  std::vector<std::pair<std::string, expr>>& parameters_;
  std::size_t depth_;
};

// A node of D written by the checker (what a subroutine stands for), pointing at `where`.
ast::node_ptr syntax(ast::node_kind kind, std::string text, std::vector<ast::node_ptr> kids, ast::span where,
                     std::string member = {});

class checker {
 public:
  checker(const source_file& source, const compile_options& options)
      : source_(source), options_(options), types_(options.types) {
    referenced_.assign(options.arguments.size(), false);
  }

  compile_result run(const ast::program& program);

 private:
  // ---- diagnostics (check.cpp) ---------------------------------------------------------------

  void error(std::string tag, std::string message, ast::span where);
  struct failed {};  // abandons the statement being checked; its error is already recorded
  [[noreturn]] void fail(std::string tag, std::string message, ast::span where);
  // The line within the program (D's library, joined before it, not counted).
  std::uint32_t line_of(ast::span where) const {
    const auto line = source_.at(where.begin).line;
    return where.begin < options_.library_end ? line : line - source_.at(options_.library_end).line + 1;
  }

  static std::string aggregation_name(const std::string& name) { return name.empty() ? "_" : name; }

  // ---- pragmas, clauses, probes and statements (check.cpp) -----------------------------------

  void pragma(const ast::pragma& p);
  void depend(const ast::library_dependency& l);
  void clause(const ast::clause& c);
  ir::probe probe(const ast::probe_description& d);
  void validate_profile(const ir::probe& p);
  void check_callees(const ast::node_ptr& n);
  ir::statement statement(const ast::node_ptr& n);

  // ---- declarations and casts (check_types.cpp) ----------------------------------------------

  std::optional<type> find_type(const std::string& name);
  std::optional<type> declared_type(const std::string& name, const ast::anonymous_record& record, ast::span where);
  void declare(const ast::declaration& d);
  void check_prototype(const ast::declaration& d);
  static bool names_function(const std::string& name);
  std::optional<type> array_of(type element, const ast::declaration& d);
  expr cast_to(expr e, const type& t);
  expr cast(const ast::node_ptr& n);
  void check_type_words(const std::string& name, ast::span where);
  expr size_of_operand(const ast::node_ptr& n);
  std::optional<type> forward_pointer(const std::string& name);

  // ---- types and translators declared in D (check_declarations.cpp) ---------------------------

  void declare_type(const ast::type_declaration& d);
  type declare_struct(const ast::type_declaration& d);
  std::uint32_t bit_field_width(const ast::declared_member& m, const type& t, const std::string& shown);
  type declare_enum(const ast::type_declaration& d);
  void declare_translator(const ast::translator& t);
  std::optional<type> translator_type(const std::string& name, bool output, ast::span where);
  expr translator_member(const ast::translator& t, const ast::declared_member& m, expr input);
  const ast::node* xlate_of(const ast::node_ptr& n) const;
  expr translated_member(const ast::node_ptr& n, const std::string& output_name, expr input, ast::span where);
  expr translated_whole(const std::string& output_name, expr input, ast::span where);

  // ---- kernel types: structs, unions and pointers from options_.types (check_types.cpp) -------

  ir::type_table& kernel_types(const std::string& what, ast::span where);
  expr curthread(ast::span where);
  expr object_member(const ast::node_ptr& n);
  struct member_place {
    expr memory;  // the member, or the bytes that hold a bit-field
    std::optional<ir::member_info> field;  // a bit-field's
  };
  member_place place_of_member(const ast::node_ptr& n);
  std::optional<member_place> bit_field_place(const ast::node_ptr& n);
  expr bit_field(expr bytes, std::uint32_t shift, std::uint32_t bits, const type& t);
  expr bit_field_assignment(const ast::node_ptr& to, member_place place, const std::string& op, expr v,
                            ast::span where);
  expr dereference(const ast::node_ptr& n);
  expr address_of(const ast::node_ptr& n);
  expr element_of(const ast::node_ptr& n);
  expr offset_of(const ast::node_ptr& n);
  bool holds_chars(const type& t, ast::span where);
  expr memory_string(expr chars, ast::span where, bool from_scratch = false);
  expr string_of(const ast::node_ptr& n);

  // ---- probe arguments: args[N] and args->name as the clause's probes declare them -----------

  const std::vector<ir::probe_argument>& clause_arguments();
  expr untyped_argument(std::int64_t n, ast::span where);
  expr probe_argument(std::int64_t n, ast::span where);
  std::optional<std::int64_t> translated_argument(const ast::node_ptr& n);
  expr native_argument(std::int64_t n, const ir::probe_argument& a, ast::span where);
  expr named_argument(const std::string& name, ast::span where);

  // ---- aggregations (check_actions.cpp) ------------------------------------------------------

  // A call of an action or of an aggregating function, as the function that checks it gets it.
  struct call_site {
    const std::string& name;
    const ast::node_ptr& node;  // the call
    std::vector<ast::node_ptr> args;
    ir::statement& st;  // the statement the call makes
  };

  static bool is_aggregating_function(const std::string& name);
  static bool is_aggregation_target(const ast::node_ptr& n);
  static const ast::node* aggregation_node(const ast::node_ptr& n);
  void aggregate(const ast::node_ptr& n, ir::statement& st);
  [[noreturn]] void prototype_mismatch(const std::string& name, std::size_t count, std::size_t expected,
                                       const char* qualifier, ast::span where);
  [[noreturn]] void mismatch(const call_site& c, std::size_t expected, const char* qualifier);
  agg::function aggregating_function(const std::string& name, const std::vector<ast::node_ptr>& args,
                                     const ast::node_ptr& call, ir::statement& st);
  agg::key_type key_type_of(const type& t) const;

  // The aggregating functions, one each, found by name in one table (check_actions.cpp).
  using aggregating_fn = agg::function (checker::*)(const call_site& c);
  static aggregating_fn find_aggregating_function(std::string_view name);
  void aggregated_value(const call_site& c, std::size_t i);
  void increment_value(const call_site& c, std::size_t i);
  std::int64_t constant_argument(const call_site& c, std::size_t i, const std::string& tag,
                                 const std::string& message);
  agg::function aggregating_count(const call_site& c);
  agg::function aggregating_quantize(const call_site& c);
  agg::function aggregating_lquantize(const call_site& c);
  agg::function aggregating_llquantize(const call_site& c);
  template <class Function>
  agg::function aggregating_scalar(const call_site& c);  // sum, min, max, avg, stddev

  // ---- actions (check_actions.cpp) -----------------------------------------------------------

  expr stack_call(const std::string& name, const ast::node_ptr& n);
  expr value_or_stack(const ast::node_ptr& n);
  bool action_call(const std::string& name, const ast::node_ptr& n, ir::statement& st);

  // The actions, one each, found by name in one table with the count of arguments each takes.
  using action_fn = void (checker::*)(const call_site& c);
  struct action_entry {
    std::string_view name;
    action_fn check;
    std::size_t least, most;  // arguments, as the action's prototype takes them
  };
  static const action_entry* find_action(std::string_view name);
  void check_argument_count(const action_entry& action, const ast::node_ptr& call);
  [[noreturn]] void incompatible(const call_site& c, std::size_t i, const std::string& prototype,
                                 const std::string& got, const std::string& tag = "D_PROTO_ARG");
  std::string argument_type_name(const call_site& c, std::size_t i);
  expr integer_argument(const call_site& c, std::size_t i, const type& prototype);
  std::uint32_t aggregation_argument(const call_site& c, std::size_t i, const std::string& tag);
  void action_trace(const call_site& c);
  void action_print(const call_site& c);
  void action_tracemem(const call_site& c);
  void action_pcap(const call_site& c);
  void check_tuple_size(std::size_t keys);
  void trace_memory(const call_site& c, expr address, std::uint32_t bytes, std::optional<expr> shown);
  void action_copyout(const call_site& c);  // and copyoutstr
  ir::printed_type printed(const type& t, int depth);
  void action_exit(const call_site& c);
  void action_speculation(const call_site& c);
  void action_destructive(const call_site& c);

  // What a clause's actions so far have done, for the order DTrace requires of speculate(),
  // commit() and the actions around them.
  struct clause_actions {
    bool speculates = false, commits = false, records = false, aggregates = false;
    bool out_of_order = false;  // one was reported
  };
  void check_order(clause_actions& done, const ir::statement& st);
  void action_printf(const call_site& c);
  void action_ftruncate(const call_site& c);
  void action_printa(const call_site& c);
  void action_clear(const call_site& c);  // and denormalize
  void action_trunc(const call_site& c);
  void action_normalize(const call_site& c);
  void action_setopt(const call_site& c);
  void action_stack(const call_site& c);  // and ustack

  // ---- printf formats (check_formats.cpp) ----------------------------------------------------

  void parse_format(ir::statement& st, const std::string& fn, ast::span where);
  static bool accepts(const print::conversion& c, const type& t);
  void format(const std::string& fn, const std::vector<ast::node_ptr>& args, std::size_t first,
              ir::statement& st);
  void validate_printa_format(ir::statement& st, const ast::node_ptr& n);

  // ---- expressions: constants and macros (check_expressions.cpp) -----------------------------

  std::optional<std::string> macro_value(const std::string& name);
  expr macro(const ast::node_ptr& n);
  std::optional<std::string> macro_text(const ast::node_ptr& n);
  diagnostic undefined_macro(const ast::node_ptr& n);
  std::optional<diagnostic> first_undefined_macro(const ast::program& program);
  expr string_constant(std::string s, ast::span where);
  static bool is_null(const expr& v);  // NULL, or any integer constant 0
  bool fits_pointer_parameter(const type& parameter, const expr& argument);
  expr null_as_string(expr v, const type& wanted);
  expr string_address(expr v, const type& pointer);
  expr memory_address(expr m);
  expr string_store(expr target, expr v, std::uint32_t bytes);
  expr array_address(expr a, const type& pointer);
  expr integer_constant(std::uint64_t v, bool decimal_or_lower_u_suffix, bool unused, ast::span where,
                        int start = 0, bool step_two = true);
  expr integer_literal(const ast::node_ptr& n);
  expr character_literal(const ast::node_ptr& n);
  expr sized(std::uint64_t size, ast::span where);
  expr size_of(const type& t, ast::span where);
  static std::optional<std::int64_t> fold(ir::op op, std::int64_t a, std::int64_t b, const type& t);
  static std::int64_t fold(ir::op op, std::int64_t v);

  // ---- expressions: variables (check_expressions.cpp) ----------------------------------------

  expr identifier(const std::string& name, ast::span where);
  expr inline_value(const type& t, const ast::node_ptr& node, ast::span where);
  expr inline_element(const ast::node_ptr& n);
  /// Whether `name` is an identifier D knows: a variable or inline declared, a builtin variable,
  /// an enumerator or a library constant.
  bool names_identifier(const std::string& name) const;
  expr variable_ref(std::uint32_t id, ast::span where);
  std::uint32_t new_variable(std::string name, ir::scope s, type t, std::vector<type> keys = {});
  expr member(const ast::node_ptr& n, const type* assigned);
  expr index(const ast::node_ptr& n, const type* assigned);
  static bool is_lvalue_kind(const ast::node_ptr& n);
  expr lvalue(const ast::node_ptr& n, const std::string& op, const type* assigned);
  bool derives_from(const ast::node_ptr& n, bool (checker::*is_root)(const ast::node_ptr&));
  bool writable(const ast::node_ptr& n);
  bool writable_root(const ast::node_ptr& n);
  bool holds_scratch(const ast::node_ptr& n);
  bool scratch_root(const ast::node_ptr& n);
  expr memory_lvalue(const ast::node_ptr& n, const std::string& op);
  bool indexes_memory(const ast::node_ptr& n);

  // ---- expressions: operators and calls (check_expressions.cpp) ------------------------------

  static std::string op_message(const std::string& op, const char* what) { return "operator " + op + " " + what; }
  expr value(const ast::node_ptr& n);   // a value: structs, unions and arrays refused
  expr value_of(expr e, ast::span where);  // ... of an expression object() gave
  expr object(const ast::node_ptr& n);  // a value, or a struct, union or array (its address)
  expr call(const ast::node_ptr& n);
  expr lock_query(const ast::node_ptr& n);
  expr user_register(const ast::node_ptr& n);
  expr prefix(const ast::node_ptr& n);
  expr increment(const ast::node_ptr& n, bool is_prefix);
  expr assign(const ast::node_ptr& n);
  expr whole_assignment(const ast::node_ptr& n, expr target, expr v);
  expr binary(const ast::node_ptr& n);
  // ---- pointer arithmetic, with C's scaling (check_expressions.cpp) --------------------------
  std::optional<type> pointed_to(const type& t);
  std::optional<std::uint32_t> pointer_step(const type& t);
  static expr arithmetic(ir::op op, expr a, expr b, const type& t, ast::span where);
  expr scaled(expr count, std::uint32_t step, ast::span where);
  expr pointer_arithmetic(ir::op op, expr a, expr b, const std::string& spelled, ast::span where);
  expr conditional(const ast::node_ptr& n);
  [[noreturn]] void incompatible_operands(const std::string& left, std::string_view op, const std::string& right,
                                          ast::span where);
  static bool key_fits(const type& proto, const type& key);
  static type key_word(std::uint32_t left);
  expr float_order(expr f);

  // ---- state -----------------------------------------------------------------------------------

  const source_file& source_;
  compile_options options_;
  compile_result result_;
  std::vector<bool> referenced_;
  std::map<std::string, std::uint32_t> globals_, thread_locals_, clause_locals_;
  std::set<std::string> external_symbols_;  // declared `extern`: the kernel's, by name
  std::set<std::uint32_t> scratch_variables_;  ///< variables assigned a pointer into scratch memory
  // An associative array's keys as D declares them, where the program's keys (ir::variable's)
  // hold a struct or union key as the words of its bytes.
  std::map<std::uint32_t, std::vector<type>> key_prototypes_;
  std::map<std::string, std::uint32_t> aggregation_ids_;
  std::map<std::string, std::pair<type, ast::node_ptr>> inlines_;  // inline name -> type, expression
  std::map<std::string, std::vector<std::pair<std::string, type>>> inline_keys_;  // an inline array's parameters
  declared_types types_;  // the program's structs, unions, enums and typedefs, then the kernel's
  // Each anonymous struct or union the program writes, declared once for all the names of its
  // declaration (none when it has an error, reported once).
  std::map<const ast::type_declaration*, std::optional<type>> anonymous_;
  std::map<std::string, std::pair<type, std::int64_t>> enumerators_;  // name -> enum type, value
  struct translator_decl {
    std::optional<type> input;  // a library translator's: resolved when first used
    type output;                // a struct or union
    ast::translator decl;
  };
  bool in_library(ast::span where) const { return where.begin < options_.library_end; }
  std::vector<translator_decl> translators_;
  const translator_decl& translator_for(const type& output, const type& input, ast::span where);
  // Translator parameters being checked, innermost last: name -> the input's value.
  std::vector<std::pair<std::string, expr>> parameters_;
  std::vector<std::uint32_t> aggregation_lines_;
  std::vector<std::vector<type>> aggregation_key_types_;
  const std::vector<ir::probe>* clause_probes_ = nullptr;  // the clause being checked's
  // dtrace -v: the least attributes of the identifiers the clause being checked uses. Context
  // ones (probeprov ... args[]) take `field` of each of its descriptions' providers.
  attributes statement_attributes_;
  void use_attributes(const attributes& a) { statement_attributes_ = min(statement_attributes_, a); }
  void use_context_attributes(attributes provider_attributes::*field) {
    if (!clause_probes_) return;  // outside a clause (an enumerator's value ...): no report
    for (const auto& p : *clause_probes_) use_attributes(context_attributes(p.provider, p.name).*field);
  }
  std::optional<std::vector<ir::probe_argument>> clause_arguments_;  // what they declare, once asked
  bool probes_refused_ = false;  // a clause named probes the engine cannot serve: checking stops
};

}  // namespace dtpp::d::detail
