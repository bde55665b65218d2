// The D checker: aggregations and actions, each aggregating function and each action one
// function found by name in a table, as libdtrace's dt_action_<name>() are.

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker.hpp"

namespace dtpp::d::detail {

namespace {

// The tables of aggregating functions and of actions: sorted by name, so that a name is found by
// binary search; constant, so that checkers on several threads share them.
template <class Row>
constexpr std::string_view name_of(const Row& row) {
  if constexpr (requires { row.first; })
    return row.first;
  else
    return row.name;
}

template <class Row, std::size_t N>
constexpr bool sorted_by_name(const Row (&table)[N]) {
  return std::is_sorted(std::begin(table), std::end(table),
                        [](const auto& a, const auto& b) { return name_of(a) < name_of(b); });
}

// The row a table holds for a name; nullptr when it holds none.
template <class Row, std::size_t N>
const Row* find_by_name(const Row (&table)[N], std::string_view name) {
  const auto it =
      std::lower_bound(std::begin(table), std::end(table), name,
                       [](const auto& row, std::string_view n) { return name_of(row) < n; });
  return it != std::end(table) && name_of(*it) == name ? it : nullptr;
}

}  // namespace

bool checker::is_aggregating_function(const std::string& name) {
  return find_aggregating_function(name) != nullptr;
}

bool checker::is_aggregation_target(const ast::node_ptr& n) {
  return n->kind == ast::node_kind::aggregation ||
         (n->kind == ast::node_kind::index && n->kids[0]->kind == ast::node_kind::aggregation) ||
         (n->kind == ast::node_kind::index && n->kids[0]->kind == ast::node_kind::index &&
          n->kids[0]->kids[0]->kind == ast::node_kind::aggregation);
}

const ast::node* checker::aggregation_node(const ast::node_ptr& n) {
  const ast::node* p = n.get();
  while (p->kind == ast::node_kind::index) p = p->kids[0].get();
  return p;
}

void checker::aggregate(const ast::node_ptr& n, ir::statement& st) {
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
    if (!keys[i].t.is_integer() && !keys[i].t.is_string() && !keys[i].t.is_stack() && !keys[i].t.is_floating())
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
      if (!key_fits(proto[i], keys[i].t))
        fail("D_PROTO_ARG", "@" + name + "[ ] key #" + std::to_string(i + 1) +
                                " is incompatible with prototype:\n\tprototype: " + proto[i].name +
                                "\n\t      key: " + keys[i].t.name,
             keys[i].where);
      keys[i] = cast_to(std::move(keys[i]), proto[i]);  // integer keys take the prototype's size
    }
  }
  check_tuple_size(keys.size());
  st.kind = ir::action::aggregate;
  st.aggregation = it->second;
  st.keys = std::move(keys);
}

// D_PROTO_LEN for a function or action given the wrong number of arguments.
void checker::prototype_mismatch(const std::string& name, std::size_t count, std::size_t expected,
                                 const char* qualifier, ast::span where) {
  fail("D_PROTO_LEN", name + "( ) prototype mismatch: " + std::to_string(count) +
                          (count == 1 ? " arg" : " args") + " passed, " + qualifier +
                          std::to_string(expected) + " expected",
       where);
}

void checker::mismatch(const call_site& c, std::size_t expected, const char* qualifier) {
  prototype_mismatch(c.name, c.args.size(), expected, qualifier, c.node->where);
}

// ---- aggregating functions ------------------------------------------------------------------

// The aggregating function's arguments, checked as DTrace checks them.
agg::function checker::aggregating_function(const std::string& name, const std::vector<ast::node_ptr>& args,
                                            const ast::node_ptr& call, ir::statement& st) {
  try {
    return (this->*find_aggregating_function(name))({name, call, args, st});
  } catch (const agg::param_error& e) {
    fail(e.tag(), e.what(), call->where);
  }
}

// Argument i: the value aggregated.
void checker::aggregated_value(const call_site& c, std::size_t i) {
  auto v = value(c.args[i]);
  if (!v.t.is_integer())
    fail("D_AGG_SCALAR", c.name + "( ) argument #1 must be of scalar type", c.args[i]->where);
  c.st.args.push_back(std::move(v));
}

// Argument i, when given: what the value counts for in quantize() and its kin.
void checker::increment_value(const call_site& c, std::size_t i) {
  if (i >= c.args.size()) return;
  auto v = value(c.args[i]);
  if (!v.t.is_integer())
    fail("D_PROTO_ARG", c.name + "( ) increment value (argument #" + std::to_string(i + 1) +
                            ") must be of scalar type",
         c.args[i]->where);
  c.st.args.push_back(std::move(v));
}

std::int64_t checker::constant_argument(const call_site& c, std::size_t i, const std::string& tag,
                                        const std::string& message) {
  auto v = value(c.args[i]);
  if (v.kind != kind_t::constant) fail(tag, message, c.args[i]->where);
  return v.value;
}

agg::function checker::aggregating_count(const call_site& c) {
  if (c.args.size() != 0) mismatch(c, 0, "");
  return agg::function::of(Count{});
}

agg::function checker::aggregating_quantize(const call_site& c) {
  const auto count = c.args.size();
  if (count == 0) mismatch(c, 1, "at least ");
  if (count > 2) mismatch(c, 2, "at most ");
  aggregated_value(c, 0);
  increment_value(c, 1);
  return agg::function::of(Quantize{});
}

agg::function checker::aggregating_lquantize(const call_site& c) {
  const auto count = c.args.size();
  if (count < 3) mismatch(c, 3, "at least ");
  if (count > 5) mismatch(c, 5, "at most ");
  aggregated_value(c, 0);
  const auto base = constant_argument(c, 1, "D_LQUANT_BASETYPE", "lquantize( ) argument #1 must be an integer constant");
  const auto limit = constant_argument(c, 2, "D_LQUANT_LIMTYPE", "lquantize( ) argument #2 must be an integer constant");
  const auto step = count > 3 ? constant_argument(c, 3, "D_LQUANT_STEPTYPE", "lquantize( ) argument #3 must be a non-zero positive integer constant") : 1;
  increment_value(c, 4);
  return agg::function::of(LQuantize(base, limit, step));
}

agg::function checker::aggregating_llquantize(const call_site& c) {
  const auto count = c.args.size();
  if (count < 5) mismatch(c, 5, "at least ");
  if (count > 6) mismatch(c, 6, "at most ");
  aggregated_value(c, 0);
  const char* const tags[] = {"D_LLQUANT_FACTORTYPE", "D_LLQUANT_LMAGTYPE", "D_LLQUANT_HMAGTYPE", "D_LLQUANT_STEPTYPE"};
  std::int64_t p[4];
  for (int i = 0; i < 4; ++i)
    p[i] = constant_argument(c, static_cast<std::size_t>(i + 1), tags[i],
                             "llquantize( ) argument #" + std::to_string(i + 1) + " must be an integer constant");
  increment_value(c, 5);
  return agg::function::of(LLQuantize(p[0], p[1], p[2], p[3]));
}

template <class Function>
agg::function checker::aggregating_scalar(const call_site& c) {
  if (c.args.size() != 1) mismatch(c, 1, "");
  aggregated_value(c, 0);
  return agg::function::of(Function{});
}

checker::aggregating_fn checker::find_aggregating_function(std::string_view name) {
  static constexpr std::pair<std::string_view, aggregating_fn> table[] = {
      {"avg", &checker::aggregating_scalar<Avg>},
      {"count", &checker::aggregating_count},
      {"llquantize", &checker::aggregating_llquantize},
      {"lquantize", &checker::aggregating_lquantize},
      {"max", &checker::aggregating_scalar<Max>},
      {"min", &checker::aggregating_scalar<Min>},
      {"quantize", &checker::aggregating_quantize},
      {"stddev", &checker::aggregating_scalar<StdDev>},
      {"sum", &checker::aggregating_scalar<Sum>}};
  static_assert(sorted_by_name(table));
  const auto* row = find_by_name(table, name);
  return row ? row->second : nullptr;
}

// The key type an aggregation keeps a key of D type t as.
agg::key_type checker::key_type_of(const type& t) const {
  using c = agg::key_type::category;
  if (t.is_string()) return {c::string, options_.string_bytes(), false};
  if (t.is_stack()) return {t.kind == type::category::stack ? c::stack : c::ustack, t.size, false, t.form};
  return {c::integer, t.size, t.is_signed};
}

// stack(frames), ustack(frames, strsize) and jstack(frames, strsize): an action, or a value that
// a key or %k takes. `frames` defaults to the stackframes / ustackframes / jstackframes option.
// dtpp has no ustack helpers (a Java VM's among them), so jstack() is ustack() with its own
// default, as DTrace's is in a process without one; strsize is checked but no string table is
// kept.
expr checker::stack_call(const std::string& name, const ast::node_ptr& n) {
  const std::vector<ast::node_ptr> args(n->kids.begin() + 1, n->kids.end());
  const bool user = name != "stack";
  const std::size_t most = user ? 2 : 1;
  if (args.size() > most) prototype_mismatch(name, args.size(), most, "at most ", n->where);
  auto frames = std::min(name == "jstack" ? options_.jstackframes : user ? options_.ustackframes : options_.stackframes,
                         options_.maxframes);
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
      fail("D_USTACK_STRSIZE", name + "( ) argument #2 must be a positive integer constant", args[i]->where);
    if (i == 0) frames = static_cast<std::uint32_t>(std::min<std::int64_t>(v.value, options_.maxframes));
  }
  expr e;
  e.kind = kind_t::call;
  e.function = user ? ir::subroutine::ustack : ir::subroutine::stack;
  e.where = n->where;
  e.t = {user ? type::category::ustack : type::category::stack, (frames + (user ? 1 : 0)) * 8, false, "stack"};
  return e;
}

namespace {
bool is_stack_call(const ast::node_ptr& n) {
  return n->kind == ast::node_kind::call && n->kids[0]->kind == ast::node_kind::identifier &&
         (n->kids[0]->text == "stack" || n->kids[0]->text == "ustack" || n->kids[0]->text == "jstack");
}
}  // namespace

// A value, or a stack: stack(), ustack() and jstack() are values only as aggregation keys and as the
// arguments of trace() and printf(); elsewhere they are actions, of type void.
expr checker::value_or_stack(const ast::node_ptr& n) {
  if (is_stack_call(n)) return stack_call(n->kids[0]->text, n);
  return value(n);
}

// dtrace-utils assembles a tuple's keys in tuple registers (-x tregs, 8 unless set) and fails
// only past the one after the last (libdtrace's EDT_NOTUPREG): at most tregs + 1 keys.
void checker::check_tuple_size(std::size_t keys) {
  if (keys > std::size_t{options_.tuple_registers} + 1)
    fail("", "Insufficient tuple registers to generate code", diagnostic::nowhere);
}

// ---- actions -------------------------------------------------------------------------------

// Actions: returns false when `name` is not one.
bool checker::action_call(const std::string& name, const ast::node_ptr& n, ir::statement& st) {
  const auto* action = find_action(name);
  if (!action) return false;
  check_argument_count(*action, n);
  (this->*action->check)(
      {name, n, std::vector<ast::node_ptr>(n->kids.begin() + 1, n->kids.end()), st});
  return true;
}

// D_PROTO_LEN for a call of an action with fewer or more arguments than it takes.
void checker::check_argument_count(const action_entry& action, const ast::node_ptr& call) {
  const auto count = call->kids.size() - 1;
  const bool exact = action.least == action.most;
  const std::string name(action.name);
  if (count < action.least) prototype_mismatch(name, count, action.least, exact ? "" : "at least ", call->where);
  if (count > action.most) prototype_mismatch(name, count, action.most, exact ? "" : "at most ", call->where);
}

const checker::action_entry* checker::find_action(std::string_view name) {
  constexpr std::size_t any = SIZE_MAX;
  // stack(), ustack() and jstack() count their arguments where they are values too (stack_call).
  static constexpr action_entry table[] = {
      {"breakpoint", &checker::action_destructive, 0, 0},
      {"chill", &checker::action_destructive, 1, 1},
      {"clear", &checker::action_clear, 1, 1},
      {"commit", &checker::action_speculation, 1, 1},
      {"copyout", &checker::action_copyout, 3, 3},
      {"copyoutstr", &checker::action_copyout, 3, 3},
      {"denormalize", &checker::action_clear, 1, 1},
      {"discard", &checker::action_speculation, 1, 1},
      {"exit", &checker::action_exit, 1, 1},
      {"freopen", &checker::action_printf, 1, any},
      {"ftruncate", &checker::action_ftruncate, 0, 0},
      {"jstack", &checker::action_stack, 0, any},
      {"normalize", &checker::action_normalize, 2, 2},
      {"panic", &checker::action_destructive, 0, 0},
      {"pcap", &checker::action_pcap, 2, 2},
      {"print", &checker::action_print, 1, 1},
      {"printa", &checker::action_printa, 1, any},
      {"printf", &checker::action_printf, 1, any},
      {"raise", &checker::action_destructive, 1, 1},
      {"setopt", &checker::action_setopt, 1, 2},
      {"speculate", &checker::action_speculation, 1, 1},
      {"stack", &checker::action_stack, 0, any},
      {"stop", &checker::action_destructive, 0, 0},
      {"system", &checker::action_printf, 1, any},
      {"trace", &checker::action_trace, 1, 1},
      {"tracemem", &checker::action_tracemem, 2, 3},
      {"trunc", &checker::action_trunc, 1, 2},
      {"ustack", &checker::action_stack, 0, any}};
  static_assert(sorted_by_name(table));
  return find_by_name(table, name);
}

void checker::incompatible(const call_site& c, std::size_t i, const std::string& prototype,
                           const std::string& got, const std::string& tag) {
  fail(tag, c.name + "( ) argument #" + std::to_string(i + 1) +
                " is incompatible with prototype:\n\tprototype: " + prototype +
                "\n\t argument: " + got,
       c.args[i]->where);
}

// The type name DTrace shows for an argument that is not what the action takes.
std::string checker::argument_type_name(const call_site& c, std::size_t i) {
  const auto& a = c.args[i];
  if (a->kind == ast::node_kind::aggregation) return "aggregation";
  if (a->kind == ast::node_kind::index && a->kids[0]->kind == ast::node_kind::aggregation)
    return "aggregation element";
  if (a->kind == ast::node_kind::call && a->kids[0]->kind == ast::node_kind::identifier &&
      is_aggregating_function(a->kids[0]->text))
    return "void";
  return value(a).t.name;
}

expr checker::integer_argument(const call_site& c, std::size_t i, const type& prototype) {
  if (c.args[i]->kind == ast::node_kind::aggregation) incompatible(c, i, prototype.name, "aggregation");
  auto v = value(c.args[i]);
  if (!v.t.is_integer()) incompatible(c, i, prototype.name, v.t.name);
  return cast_to(std::move(v), prototype);
}

std::uint32_t checker::aggregation_argument(const call_site& c, std::size_t i, const std::string& tag) {
  const auto& args = c.args;
  if (args[i]->kind != ast::node_kind::aggregation) incompatible(c, i, "aggregation", argument_type_name(c, i), tag);
  const auto it = aggregation_ids_.find(args[i]->text);
  if (it == aggregation_ids_.end())
    fail(tag == "D_PRINTA_AGGARG" ? "D_PRINTA_AGGBAD" : tag.substr(0, tag.find("_AGGARG")) + "_AGGBAD",
         "undefined aggregation: @" + aggregation_name(args[i]->text), args[i]->where);
  return it->second;
}

void checker::action_trace(const call_site& c) {
  const auto& args = c.args;
  if (args[0]->kind == ast::node_kind::aggregation)
    fail("D_TRACE_DYN", "trace( ) may not be applied to a dynamic expression", args[0]->where);
  const auto& a = args[0];
  const bool stack = is_stack_call(a);
  auto v = stack ? value_or_stack(a) : object(a);
  if (v.t.is_object()) {
    // A struct, union or array (a char array too) is traced as its bytes, as dtrace-utils dumps
    // it: tracemem() of the object's address (what an object evaluates to in both engines).
    const auto bytes = v.t.size;
    return trace_memory(c, std::move(v), bytes, std::nullopt);
  }
  if (!stack) v = value_of(std::move(v), a->where);
  if (v.t.is_void()) fail("D_TRACE_VOID", "trace( ) may not be applied to a void expression", a->where);
  c.st.kind = ir::action::trace;
  c.st.records.push_back({v.t, 0, v.t.is_string() ? options_.string_bytes() : v.t.size});
  c.st.args.push_back(std::move(v));
}

// copyout(buffer, address, size) and copyoutstr(string, address, most): destructive writes into
// the memory of the process that fired, with DTrace's prototypes (void *, uintptr_t, size_t) and
// (string, uintptr_t, size_t); a string is memory for copyout() too, as in DTrace.
void checker::action_copyout(const call_site& c) {
  const bool string = c.name == "copyoutstr";
  auto from = value(c.args[0]);
  if (string ? !from.t.is_string() : !(from.t.is_integer() || from.t.is_string()))
    incompatible(c, 0, string ? "string" : "void *", from.t.name);
  auto to = integer_argument(c, 1, integer_type("uintptr_t", 8, false));
  auto size = integer_argument(c, 2, integer_type("size_t", 8, false));
  c.st.kind = string ? ir::action::copyoutstr : ir::action::copyout;
  c.st.args.push_back(std::move(from));
  c.st.args.push_back(std::move(to));
  c.st.args.push_back(std::move(size));
}

// tracemem(address, size [, shown]): `size` bytes (a positive constant) read from the address,
// and at run time how many of them to show (and read, as dtrace-utils does): all when `shown` is
// negative or at least `size`.
void checker::action_tracemem(const call_site& c) {
  const auto size = integer_argument(c, 1, integer_type("size_t", 8, false));
  // An array (of chars too: not a string here) is its address, as in DTrace.
  auto address = object(c.args[0]);
  if (address.t.kind == type::category::record) incompatible(c, 0, "pointer or integer", address.t.name, "D_TRACEMEM_ADDR");
  if (address.t.kind == type::category::array) address = array_address(std::move(address), integer_type("void *", 8, false));
  address = value_of(std::move(address), c.args[0]->where);
  if (!address.t.is_integer()) incompatible(c, 0, "pointer or integer", address.t.name, "D_TRACEMEM_ADDR");
  if (size.kind != kind_t::constant || size.value <= 0)
    fail("D_TRACEMEM_SIZE", "tracemem( ) argument #2 must be a non-zero positive integral constant expression",
         c.args[1]->where);
  std::optional<expr> shown;
  if (c.args.size() == 3) shown = integer_argument(c, 2, integer_type("int64_t", 8, true));
  trace_memory(c, std::move(address), static_cast<std::uint32_t>(size.value), std::move(shown));
}

// The tracemem statement: `bytes` read from the address, and at run time how many to show.
void checker::trace_memory(const call_site& c, expr address, std::uint32_t bytes, std::optional<expr> shown) {
  c.st.kind = ir::action::tracemem;
  c.st.records.push_back({type{type::category::array, bytes, false, "char [" + std::to_string(bytes) + "]"}, 0, bytes});
  expr size;
  size.kind = kind_t::constant;
  size.t = integer_type("size_t", 8, false);
  size.value = bytes;
  c.st.args.push_back(std::move(address));
  c.st.args.push_back(std::move(size));
  if (shown) {
    c.st.records.push_back({shown->t, 0, 8});
    c.st.args.push_back(std::move(*shown));
  }
}

// pcap(skb, protocol): the linear bytes of a struct sk_buff's packet, at most pcapsize of them,
// shown as dtrace-utils shows them when it has neither a capture file nor tshark to write to: as
// tracemem() shows bytes; a NULL skb captures nothing. Written as D over the sk_buff (len -
// data_len bytes at data), so the kernel's reads and faults are those of `->`; the skb
// expression is evaluated for each of its uses.
void checker::action_pcap(const call_site& c) {
  using ast::node_kind;
  const auto skb = object(c.args[0]);
  if (!skb.t.is_integer()) incompatible(c, 0, "void *", skb.t.name);
  (void)integer_argument(c, 1, int_type());  // the link type a capture file would record
  if (skb.kind == kind_t::constant && skb.value == 0)
    return trace_memory(c, skb, options_.pcapsize, cast_to(skb, integer_type("int64_t", 8, true)));
  kernel_types("pcap( )", c.args[0]->where);
  const auto w = c.args[0]->where;
  const auto packet = [&](const char* member) {
    return syntax(node_kind::member, "->", {syntax(node_kind::cast, "struct sk_buff *", {c.args[0]}, w)}, w, member);
  };
  const auto captured = [&](ast::node_ptr present) {
    return syntax(node_kind::conditional, "?", {c.args[0], present, syntax(node_kind::integer, "0", {}, w)}, w);
  };
  const auto limit = syntax(node_kind::integer, std::to_string(options_.pcapsize), {}, w);
  const auto linear = syntax(node_kind::binary, "-", {packet("len"), packet("data_len")}, w);
  const auto shown = syntax(node_kind::conditional, "?",
                            {syntax(node_kind::binary, ">", {linear, limit}, w), limit, linear}, w);
  trace_memory(c, value(captured(syntax(node_kind::cast, "uintptr_t", {packet("data")}, w))), options_.pcapsize,
               cast_to(value(captured(shown)), integer_type("int64_t", 8, true)));
}

// print(pointer): the address and the object it points to, whole (printsize cuts what the
// consumer shows, as in dtrace-utils, so that setopt() can change it while the program runs).
void checker::action_print(const call_site& c) {
  if (c.args.size() != 1) mismatch(c, 1, "");
  if (c.args[0]->kind == ast::node_kind::aggregation) incompatible(c, 0, "void *", "aggregation");
  auto v = value(c.args[0]);
  const bool is_address = v.t.is_integer() && !v.t.name.empty() && v.t.name.back() == '*';
  if (!is_address) incompatible(c, 0, "void *", v.t.name);
  const auto object = v.t.pointee != 0 ? types_.resolve(v.t.pointee) : std::nullopt;
  if (!object || object->size == 0) {
    const auto named = object ? object->name : v.t.name.substr(0, v.t.name.find_last_not_of(" *") + 1);
    fail("D_PRINT_SIZE", "print( ) argument #1 reference has type '" + named + "' with size " +
                             std::to_string(object ? object->size : 0) + "; cannot print( ) it.",
         c.args[0]->where);
  }
  c.st.kind = ir::action::print;
  c.st.printed = printed(*object, 0);
  c.st.records.push_back({v.t, 0, 8});
  c.st.records.push_back({*object, 0, object->size});
  c.st.args.push_back(std::move(v));
}

// A type's shape for print(), as deep as print() shows it.
ir::printed_type checker::printed(const type& t, int depth) {
  using shape = ir::printed_type::shape;
  ir::printed_type p;
  p.name = t.name;
  if (!p.name.empty() && p.name.back() == ' ') p.name.pop_back();  // "struct " of an anonymous one
  p.size = t.size;
  p.is_signed = t.is_signed;
  const bool below_limit = depth + 1 < ir::printed_depth;
  if (t.is_integer() && !t.name.empty() && t.name.back() == '*') {
    p.kind = shape::pointer;
  } else if (t.is_integer() && t.name.rfind("enum ", 0) == 0) {
    p.kind = shape::enumeration;
    for (const auto& [name, typed_value] : enumerators_)
      if (typed_value.first.name == t.name) p.enumerators.emplace_back(typed_value.second, name);
  } else if (t.is_integer()) {
    p.kind = shape::integer;
  } else if (t.kind == type::category::record) {
    p.kind = shape::record;
    if (below_limit)
      for (const auto& [name, info] : types_.members(t.id)) {
        auto member = printed(info.t, depth + 1);
        member.bit_size = info.bit_size;
        p.members.push_back({name, info.bit_offset, std::move(member)});
      }
  } else if (t.kind == type::category::array) {
    p.kind = shape::array;
    if (const auto element = types_.element(t.id); element && element->size != 0) {
      p.count = t.size / element->size;
      if (below_limit) p.members.push_back({"", 0, printed(*element, depth + 1)});
    }
  }
  return p;
}

void checker::action_exit(const call_site& c) {
  if (c.args.size() != 1) mismatch(c, 1, "");
  c.st.kind = ir::action::exit;
  c.st.args.push_back(integer_argument(c, 0, int_type()));
  c.st.records.push_back({int_type(), 0, 4});
}

// speculate(id), commit(id), discard(id). commit and discard leave the id in the clause's data,
// for the consumer to act on its buffer in the order of the records.
void checker::action_speculation(const call_site& c) {
  if (c.args.size() != 1) mismatch(c, 1, "");
  c.st.kind = c.name == "speculate" ? ir::action::speculate
              : c.name == "commit"  ? ir::action::commit
                                    : ir::action::discard;
  c.st.args.push_back(integer_argument(c, 0, int_type()));
  if (c.st.kind != ir::action::speculate) c.st.records.push_back({int_type(), 0, 4});
}

// DTrace reports the first action out of order in a clause, and no more.
void checker::check_order(clause_actions& done, const ir::statement& st) {
  const auto problem = [&]() -> std::pair<const char*, const char*> {
    switch (st.kind) {
      case ir::action::expression:
      case ir::action::discard:
        return {};
      case ir::action::commit:
        if (done.records || done.aggregates) return {"D_COMM_DREC", "commit( ) may not follow data-recording action(s)"};
        done.commits = true;
        return {};
      case ir::action::speculate:
        if (done.speculates) return {"D_SPEC_SPEC", "speculate( ) may not follow speculate( )"};
        if (done.commits) return {"D_SPEC_COMM", "speculate( ) may not follow commit( )"};
        if (done.records || done.aggregates) return {"D_SPEC_DREC", "speculate( ) may not follow data-recording action(s)"};
        done.speculates = true;
        return {};
      case ir::action::aggregate:
        if (done.commits) return {"D_AGG_COMM", "aggregating actions may not follow commit( )"};
        if (done.speculates) return {"D_AGG_SPEC", "aggregating actions may not follow speculate( )"};
        done.aggregates = true;
        return {};
      default:
        if (ir::is_destructive(st.kind) && done.speculates)
          return {"D_ACT_SPEC", "destructive actions may not follow speculate( )"};
        if (st.kind == ir::action::exit && done.speculates) return {"D_EXIT_SPEC", "exit( ) may not follow speculate( )"};
        if (done.commits) return {"D_DREC_COMM", "data-recording actions may not follow commit( )"};
        done.records = true;
        return {};
    }
  }();
  if (problem.first == nullptr || done.out_of_order) return;
  done.out_of_order = true;
  fail(problem.first, problem.second, st.where);
}

// raise(signal), chill(nanoseconds), stop(), breakpoint(), panic().
void checker::action_destructive(const call_site& c) {
  const bool takes_one = c.name == "raise" || c.name == "chill";
  c.st.kind = c.name == "raise"   ? ir::action::raise
              : c.name == "chill" ? ir::action::chill
              : c.name == "stop"  ? ir::action::stop
              : c.name == "panic" ? ir::action::panic
                                  : ir::action::breakpoint;
  if (takes_one) c.st.args.push_back(integer_argument(c, 0, int_type()));  // both prototypes say int, as dtrace-utils'
}

void checker::action_printf(const call_site& c) {
  c.st.kind = c.name == "system" ? ir::action::system : c.name == "freopen" ? ir::action::freopen : ir::action::printf;
  // freopen("") sends the output back where it went first; "." is dtrace-utils' own mark for
  // that, so it is refused as a file name.
  if (c.st.kind == ir::action::freopen && c.args[0]->kind == ast::node_kind::string) {
    if (c.args[0]->text == ".")
      fail("D_FREOPEN_INVALID", "freopen( ) argument #1 cannot be \".\"", c.args[0]->where);
    if (c.args[0]->text.empty() && c.args.size() == 1) {
      c.st.has_format = true;
      return;
    }
  }
  format(c.name, c.args, 0, c.st);
}

void checker::action_ftruncate(const call_site& c) {
  c.st.kind = ir::action::ftruncate;
}

void checker::action_printa(const call_site& c) {
  const auto& args = c.args;
  const auto count = args.size();
  auto& st = c.st;
  std::size_t first = 0;
  if (args[0]->kind == ast::node_kind::string) {
    st.format = args[0]->text;
    st.has_format = true;
    first = 1;
    if (count == 1)
      fail("D_PRINTA_PROTO", "printa( ) prototype mismatch: 1 args passed, 2 expected", c.node->where);
  }
  st.kind = ir::action::printa;
  for (std::size_t i = first; i < count; ++i) {
    st.aggregations.push_back(aggregation_argument(c, i, "D_PRINTA_AGGARG"));
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
  if (st.has_format) validate_printa_format(st, c.node);
}

void checker::action_clear(const call_site& c) {
  const auto& name = c.name;
  if (c.args.size() != 1) mismatch(c, 1, "");
  c.st.kind = name == "clear" ? ir::action::clear : ir::action::denormalize;
  c.st.aggregation = aggregation_argument(c, 0, name == "clear" ? "D_CLEAR_AGGARG" : "D_NORMALIZE_AGGARG");
  c.st.records.push_back({integer_type("uint32_t", 4, false), 0, 4});
}

void checker::action_trunc(const call_site& c) {
  const auto count = c.args.size();
  auto& st = c.st;
  st.kind = ir::action::trunc;
  st.aggregation = aggregation_argument(c, 0, "D_TRUNC_AGGARG");
  st.records.push_back({integer_type("uint32_t", 4, false), 0, 4});
  if (count == 2) {
    st.args.push_back(integer_argument(c, 1, integer_type("int64_t", 8, true)));
    st.records.push_back({st.args.back().t, 0, 8});
  }
}

void checker::action_normalize(const call_site& c) {
  auto& st = c.st;
  st.kind = ir::action::normalize;
  st.aggregation = aggregation_argument(c, 0, "D_NORMALIZE_AGGARG");
  st.args.push_back(integer_argument(c, 1, integer_type("uint64_t", 8, false)));
  st.records.push_back({integer_type("uint32_t", 4, false), 0, 4});
  st.records.push_back({st.args.back().t, 0, 8});
}

void checker::action_setopt(const call_site& c) {
  const auto& args = c.args;
  const auto count = args.size();
  // A value that is no string breaks the prototype (char *); a string computed when the probe
  // fires, the need for a constant.
  for (std::size_t i = 0; i < count; ++i)
    if (args[i]->kind != ast::node_kind::string) {
      const auto given = value(args[i]).t;
      incompatible(c, i, given.is_string() ? "string constant" : "char *", given.name);
    }
  c.st.kind = ir::action::setopt;
  c.st.format = args[0]->text;
  if (count == 2) c.st.args.push_back(value(args[1]));
}

void checker::action_stack(const call_site& c) {
  c.st.kind = c.name == "stack" ? ir::action::stack : ir::action::ustack;
  auto e = stack_call(c.name, c.node);
  c.st.records.push_back({e.t, 0, e.t.size});
  c.st.args.push_back(std::move(e));
}

}  // namespace dtpp::d::detail
