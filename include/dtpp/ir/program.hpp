// The checked program every engine runs: probes, typed clauses, variables, aggregations and the
// record layout of every output action. Plain values; engines never see the syntax tree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtpp/agg/descriptor.hpp"
#include "dtpp/d/span.hpp"
#include "dtpp/d/stability.hpp"
#include "dtpp/ir/printed_type.hpp"
#include "dtpp/ir/type.hpp"
#include "dtpp/print/conversion.hpp"

namespace dtpp::ir {

enum class scope : std::uint8_t { global, thread, clause };

/// A D variable: `x` (global), `self->x` (thread-local), `this->x` (clause-local), or an
/// associative array `x[k1, k2]` (keys non-empty).
struct variable {
  std::uint32_t id = 0;
  std::string name;
  scope where = scope::global;
  type value;
  std::vector<type> keys;
};

/// Built-in variables, read-only.
enum class builtin : std::uint8_t {
  arg,  ///< arg0..arg9 and args[N]; expr::index holds N
  timestamp, vtimestamp, walltimestamp, pid, ppid, tid, uid, gid, cpu, execname, probeprov,
  probemod, probefunc, probename, errno_value, epid, id, curthread, caller, ucaller,
  stackdepth, ustackdepth,
  uregs,  ///< uregs[R_...]: expr::value holds the struct pt_regs word it reads
  /// The address of the probe's record (a tracepoint's, in kernel memory), where the arguments
  /// that are not values lie: a char array, a __data_loc string.
  probe_record,
};

/// D's operators, as the checker resolved them. The binary ones also name a compound
/// assignment's arithmetic (`+=` is add).
enum class op : std::uint8_t {
  add, subtract, multiply, divide, modulo, bit_and, bit_or, bit_xor, shift_left, shift_right,
  equal, not_equal, less, less_equal, greater, greater_equal,
  logical_and, logical_or, logical_xor,
  negate, plus, logical_not, complement,  ///< unary
  assign,                                 ///< plain `=`
  increment, decrement,                   ///< `++`, `--`
};
inline constexpr op first_binary = op::add, last_binary = op::logical_xor;
inline constexpr op first_unary = op::negate, last_unary = op::complement;

/// An operator as D spells it: "+", "&&", "!", "=", "++".
inline std::string_view spelling(op o) {
  switch (o) {
    case op::add: case op::plus: return "+";
    case op::subtract: case op::negate: return "-";
    case op::multiply: return "*";
    case op::divide: return "/";
    case op::modulo: return "%";
    case op::bit_and: return "&";
    case op::bit_or: return "|";
    case op::bit_xor: return "^";
    case op::shift_left: return "<<";
    case op::shift_right: return ">>";
    case op::equal: return "==";
    case op::not_equal: return "!=";
    case op::less: return "<";
    case op::less_equal: return "<=";
    case op::greater: return ">";
    case op::greater_equal: return ">=";
    case op::logical_and: return "&&";
    case op::logical_or: return "||";
    case op::logical_xor: return "^^";
    case op::logical_not: return "!";
    case op::complement: return "~";
    case op::assign: return "=";
    case op::increment: return "++";
    case op::decrement: return "--";
  }
  return "?";
}

/// The operator in [first, last] that D spells `text`, if any.
inline std::optional<op> op_spelled(std::string_view text, op first, op last) {
  for (auto i = static_cast<int>(first); i <= static_cast<int>(last); ++i)
    if (spelling(static_cast<op>(i)) == text) return static_cast<op>(i);
  return std::nullopt;
}

/// D's subroutines, and stack() and ustack() as values (aggregation keys, trace, printf).
/// sym() ... umod() name one address: a stack or ustack of one frame whose type's `form` says
/// how it prints.
enum class subroutine : std::uint8_t {
  strlen, strjoin, substr, strchr, strrchr, strstr, strtok, index, rindex, lltostr, copyinstr,
  basename, dirname, cleanpath, toupper, tolower, strtoll, htons, htonl, htonll, ntohs, ntohl,
  ntohll, getmajor, getminor, rand, progenyof, speculation, stack, ustack,
  sym, func, mod, usym, ufunc, uaddr, umod, copyin, alloca, inet_ntoa, inet_ntoa6, inet_ntop, link_ntop,
  bcopy,     ///< kids: source, destination (in scratch), size; void
  copyinto,  ///< kids: user address, size, destination (in scratch); void
  action,  ///< an action (trace, printf ...) used as a value: void, which every context refuses
};

/// A subroutine's D name: "strlen", "stack" ...
inline std::string_view name(subroutine s) {
  switch (s) {
    case subroutine::strlen: return "strlen";
    case subroutine::strjoin: return "strjoin";
    case subroutine::substr: return "substr";
    case subroutine::strchr: return "strchr";
    case subroutine::strrchr: return "strrchr";
    case subroutine::strstr: return "strstr";
    case subroutine::strtok: return "strtok";
    case subroutine::index: return "index";
    case subroutine::rindex: return "rindex";
    case subroutine::lltostr: return "lltostr";
    case subroutine::copyinstr: return "copyinstr";
    case subroutine::basename: return "basename";
    case subroutine::dirname: return "dirname";
    case subroutine::cleanpath: return "cleanpath";
    case subroutine::toupper: return "toupper";
    case subroutine::tolower: return "tolower";
    case subroutine::strtoll: return "strtoll";
    case subroutine::htons: return "htons";
    case subroutine::htonl: return "htonl";
    case subroutine::htonll: return "htonll";
    case subroutine::ntohs: return "ntohs";
    case subroutine::ntohl: return "ntohl";
    case subroutine::ntohll: return "ntohll";
    case subroutine::getmajor: return "getmajor";
    case subroutine::getminor: return "getminor";
    case subroutine::rand: return "rand";
    case subroutine::progenyof: return "progenyof";
    case subroutine::speculation: return "speculation";
    case subroutine::stack: return "stack";
    case subroutine::ustack: return "ustack";
    case subroutine::sym: return "sym";
    case subroutine::func: return "func";
    case subroutine::mod: return "mod";
    case subroutine::usym: return "usym";
    case subroutine::ufunc: return "ufunc";
    case subroutine::uaddr: return "uaddr";
    case subroutine::umod: return "umod";
    case subroutine::copyin: return "copyin";
    case subroutine::alloca: return "alloca";
    case subroutine::inet_ntoa: return "inet_ntoa";
    case subroutine::inet_ntoa6: return "inet_ntoa6";
    case subroutine::inet_ntop: return "inet_ntop";
    case subroutine::link_ntop: return "link_ntop";
    case subroutine::bcopy: return "bcopy";
    case subroutine::copyinto: return "copyinto";
    case subroutine::action: return "action";
  }
  return "?";
}

/// A typed expression.
struct expr {
  enum class kind_t : std::uint8_t {
    constant,     ///< value
    string,       ///< text; value 1: NULL, a null pointer where a string goes (`s = NULL`)
    builtin,      ///< index: the builtin (arg number in `value` for builtin::arg)
    variable,     ///< index: variable id; text: its name; kids: keys of an associative array
    unary,        ///< operation: negate, plus, logical_not, complement; kids: operand
    binary,       ///< operation: first_binary .. last_binary; kids: left, right
    conditional,  ///< kids: condition, then, else
    /// operation: assign, or a compound's arithmetic (add for +=); kids: target, value. A struct
    /// or union target: the value's bytes copied, or (an associative array's element assigned
    /// the integer 0) the element deleted.
    assign,
    increment,    ///< operation: increment or decrement; value: 1 for prefix, 0 for postfix; kids: target
    cast,         ///< kids: operand; type: the target (a pointer for a string: its bytes' address, NULL's 0)
    call,         ///< function: the subroutine; kids: arguments (strtok(NULL, d): d alone, going on with the thread's string)
    stringof,     ///< kids: operand
    /// The object `value` bytes past the address kids[0] (a pointer, or a struct or union object)
    /// in kernel memory: a struct, union or array stands for its address; an integer or pointer
    /// is read (a bad address faults, as DTrace's do).
    memory,
    /// The NUL-terminated string in kernel memory at kids[0] (a char array or char pointer), at
    /// most strsize bytes of it (a bad address faults); value: 1 for a pointer alloca() or
    /// copyin() gave, when the string must start and end (its NUL, or its last byte when cut)
    /// within the bytes taken, as dtrace-utils checks an alloca()'d pointer's reads.
    memory_string,
    /// The character kids[1] (an integer) of the string kids[0], as D reads a string as an array
    /// of char: 0 from its NUL to its last byte (strsize); before or past those, DTrace's "index
    /// out of bounds" fault, with the index.
    string_character,
    /// kids evaluated in order, the value the last's: a whole translated struct, its members
    /// stored into scratch memory before its address is taken.
    sequence,
  } kind = kind_t::constant;
  type t;
  /// constant: the value; memory: the offset; binary add of an array's address (kids[0]) and a
  /// computed byte offset: the element's size, when the engine checks the offset against the
  /// array's size (DTrace's "index out of bounds" fault, with the offset / the element's size)
  std::int64_t value = 0;
  std::string text;  ///< string: the constant; variable and builtin: the name, for messages
  std::uint32_t index = 0;
  op operation = op::add;
  subroutine function = subroutine::strlen;
  std::vector<expr> kids;
  d::span where;
};

/// The bytes (with the NUL) a memory_string reads at most: a char array's size and a NUL (an
/// unterminated array ends at its end), a pointer's strsize.
inline std::uint32_t memory_string_bound(const expr& e, std::uint32_t strsize) {
  const auto& from = e.kids[0].t;
  return from.kind == type::category::array && from.size + 1 < strsize ? from.size + 1 : strsize;
}

/// One record of an enabled probe's data, as DTrace's dtrace_recdesc_t describes it.
struct record {
  type t;
  std::uint32_t offset = 0;  ///< from the start of the clause's data
  std::uint32_t size = 0;
};

/// What a statement does.
enum class action : std::uint8_t {
  expression,   ///< evaluate (assignments, increments)
  aggregate,    ///< @a[keys] = fn(args)
  trace, printf, printa, exit, clear, trunc, normalize, denormalize, setopt, stack, ustack,
  print,        ///< args[0]: a pointer; records: the address, then the object's bytes
  speculate,    ///< args[0]: the speculation; the clause's data goes to its buffer
  commit,       ///< records[0]: the speculation whose buffer the consumer prints now
  discard,      ///< records[0]: the speculation whose buffer the consumer drops
  ftruncate,    ///< the consumer empties the file its output goes to
  tracemem,     ///< args: the address, the size, [the size to show]; records: the bytes read, [that size]
  // Destructive actions: a program with one runs only when allowed (-w, `destructive`).
  system,       ///< as printf; the consumer runs the text with /bin/sh
  freopen,      ///< as printf; the consumer's output goes to the file named, or back ("" format)
  raise,        ///< args[0]: a signal for the thread that fired
  stop,         ///< SIGSTOP for the process that fired
  chill,        ///< args[0]: nanoseconds to spin
  copyout,      ///< args: D memory (a pointer or a string), the process's address, the bytes to write there
  copyoutstr,   ///< args: a string, the process's address, the most bytes to write (its NUL included)
  breakpoint,   ///< refused by both engines
  panic,        ///< refused by both engines
};

/// Why both engines refuse breakpoint() and panic(), which the checker accepts so that DTrace's
/// rules about where they may stand are checked first.
inline std::string refusal(action a) {
  return std::string(a == action::panic ? "panic" : "breakpoint") +
         "() is refused: dtpp never stops the system it observes";
}

/// Whether a statement changes the system it observes (DTrace's destructive actions).
inline bool is_destructive(action a) {
  return a == action::system || a == action::freopen || a == action::raise || a == action::stop || a == action::chill ||
         a == action::copyout || a == action::copyoutstr || a == action::breakpoint || a == action::panic;
}

struct statement {
  action kind = action::expression;
  std::vector<expr> args;        ///< the action's or function's arguments (format excluded)
  std::string format;            ///< printf / printa format, when given; setopt: the option
  bool has_format = false;
  print::format parsed_format;   ///< printf / printa: the format, parsed once by the checker
  std::uint32_t aggregation = 0; ///< aggregate, clear, trunc, normalize, denormalize: the varid
  std::vector<std::uint32_t> aggregations;  ///< printa: the varids, in order
  std::vector<expr> keys;        ///< aggregate: the keys, cast to the aggregation's key types
  std::vector<record> records;   ///< what this statement adds to the clause's data
  printed_type printed;          ///< print(): the type of the object the pointer points to
  d::span where;
};

/// provider:module:function:name, each possibly a glob; empty fields match anything.
struct probe {
  std::string provider, module, function, name;
  d::span where;
  std::string text() const { return provider + ":" + module + ":" + function + ":" + name; }
};

struct clause {
  std::uint32_t id = 0;  ///< 1-based, in program order; also its enabled probe id (EPID)
  std::vector<probe> probes;
  std::optional<expr> predicate;
  std::vector<statement> statements;
  bool default_action = false;  ///< no body: trace the probe firing only
  std::uint32_t data_size = 0;  ///< bytes of records all its statements add
  /// What a firing takes in DTrace's principal buffer (bufsize counts these): a 4-byte enabled
  /// probe id, then each record at its alignment; 0 when it writes nothing. `buffer_alignment`:
  /// where such a firing may start.
  std::uint32_t buffer_size = 0, buffer_alignment = 4;
  /// dtrace -v's report: the least attributes of the clause's probe descriptions, and of the
  /// identifiers its predicate and actions use (D's own are Stable/Stable/Common).
  d::attributes description_attributes, statement_attributes;
  d::span where;
};

/// Calls f on every expression of a clause (predicate, arguments, keys) and on each of their
/// sub-expressions.
template <class F>
void for_each_expression(const clause& c, F&& f) {
  const auto visit = [&](const auto& self, const expr& e) -> void {
    f(e);
    for (const auto& k : e.kids) self(self, k);
  };
  if (c.predicate) visit(visit, *c.predicate);
  for (const auto& s : c.statements) {
    for (const auto& e : s.args) visit(visit, e);
    for (const auto& e : s.keys) visit(visit, e);
  }
}

/// Whether `e` loads an integer through a pointer (*p, p->m, p[i]), not from a D variable's own
/// bytes (rec.m, a[i], m[i][j]) nor a type_table's memory: a pointer that may point into scratch
/// memory, whose bounds the load is checked against, as dtrace-utils checks an alloca()'d one's.
inline bool loads_through_pointer(const expr& e) {
  using kind = expr::kind_t;
  if (e.kind != kind::memory || e.t.is_object() || names_table_type(e.t) || names_table_type(e.kids[0].t))
    return false;
  const expr* at = &e.kids[0];
  while ((at->kind == kind::binary && at->operation == op::add) || (at->kind == kind::memory && at->t.is_object()))
    at = &at->kids[0];
  return at->kind != kind::variable || !at->t.is_object();
}

/// Whether a clause uses scratch memory (alloca(), copyin(), bcopy(), copyinto(), a store or load
/// through a pointer): each run of it starts with none taken and every byte zero, as DTrace's.
inline bool uses_scratch(const clause& c) {
  bool uses = false;
  for_each_expression(c, [&](const expr& e) {
    using kind = expr::kind_t;
    uses |= (e.kind == kind::call && (e.function == subroutine::alloca || e.function == subroutine::copyin ||
                                      e.function == subroutine::bcopy || e.function == subroutine::copyinto)) ||
            ((e.kind == kind::assign || e.kind == kind::increment) && e.kids[0].kind == kind::memory) ||
            (e.kind == kind::memory_string && e.value != 0) ||
            loads_through_pointer(e);
  });
  return uses;
}

/// The bytes a firing's header takes in a speculative buffer besides its records (dtrace-utils'
/// size, speculation, probe and statement words), as specsize counts them.
inline constexpr std::size_t speculative_header_bytes = 16;

/// The statement of a speculating clause whose record no longer fits in a speculative buffer of
/// `specsize` bytes on its own (its header and the records up to its own), as dtrace-utils checks
/// each record as it is stored: that firing counts a speculative drop and ends there, with what
/// follows undone. statements.size() when every record fits, or the clause does not speculate.
inline std::size_t speculative_overflow(const clause& c, std::size_t specsize) {
  bool speculating = false;
  for (std::size_t i = 0; i < c.statements.size(); ++i) {
    const auto& s = c.statements[i];
    speculating |= s.kind == action::speculate;
    if (speculating)
      for (const auto& r : s.records)
        if (speculative_header_bytes + r.offset + r.size > specsize) return i;
  }
  return c.statements.size();
}

struct option {
  std::string name;
  std::string value;  ///< empty for a flag set without a value
};

struct program {
  std::vector<clause> clauses;
  std::vector<variable> variables;
  std::vector<agg::descriptor> aggregations;  ///< varid - 1 indexes this
  std::vector<option> options;                 ///< #pragma D option, in order
  /// Bytes of scratch memory a clause's alloca() and copyin() take from (DTrace's scratchsize,
  /// rounded up to 8).
  std::uint32_t scratchsize = 256;
};

/// dtrace-utils' statement id of a clause's probe description (its BPF function dt_clause_N, the
/// id a fault names): each description of each clause is a statement of its own, numbered from 0
/// in program order.
inline std::uint32_t statement_id(const program& p, std::uint32_t clause_index, std::size_t description) {
  std::size_t id = description;
  for (std::uint32_t i = 0; i < clause_index; ++i) id += p.clauses[i].probes.size();
  return static_cast<std::uint32_t>(id);
}

}  // namespace dtpp::ir
