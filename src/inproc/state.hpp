// What the in-process engine's files share (src/inproc: sites, compile, engine): a D value, the
// probes bound and their clauses compiled, the engine's state, and the runner of one firing.
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "dtpp/inproc/engine.hpp"
#include "dtpp/inproc/probe.hpp"
#include "fault.hpp"
#include "scratch.hpp"

namespace dtpp::inproc {

namespace detail {

// A D value while a clause runs: an integer (its bits) or a string. A string whose `i` is
// null_string is NULL, DTrace's (char *)0 where a string goes: an associative array's element
// never assigned, `s = NULL`, strstr() finding nothing. Reading its bytes faults at address 0.
struct value {
  static constexpr std::int64_t null_string = 1;

  std::int64_t i = 0;
  std::string s;  // a string, or a stack record's bytes

  static value null() { return value{null_string, {}}; }
  bool is_null() const { return i == null_string; }  // of a string
};

// speculate() of a buffer not in use: the clause stops, and its data goes nowhere.
struct clause_abandoned {};

class runner;
struct compiled_update;
// Runs the updates of a clause that only updates aggregations, in order (compile.cpp): one call
// per clause, each update inlined there.
void run_updates(runner& r, const std::vector<compiled_update>& updates);

// A clause compiled for one probe: closures resolved once, when the engine is made, so that a
// firing neither walks the expression tree nor compares operator names.
using compiled_expr = std::function<value(runner&)>;
using compiled_step = std::function<bool(runner&)>;  // statement: true when it added data

// An integer operand of an update (a value, an increment): a constant or argN is read in place,
// anything else through its closure.
struct integer_operand {
  enum class source : std::uint8_t { constant, argument, closure } from = source::constant;
  std::int64_t n = 0;  // the constant, or the argument's index
  compiled_expr other;

  std::int64_t operator()(runner& r) const;
  /// A constant's or an argument's value, with no closure to run.
  std::int64_t direct(std::span<const std::int64_t> args) const {
    return read(from == source::argument, n, args);
  }
  /// Argument n (0 past the arguments given), or n itself when it is a constant.
  static std::int64_t read(bool argument, std::int64_t n, std::span<const std::int64_t> args) {
    if (argument)
      return static_cast<std::size_t>(n) < args.size() ? args[static_cast<std::size_t>(n)] : 0;
    return n;
  }
};

// One aggregation update, compiled to data rather than to a closure: the function's policy is
// chosen by a switch, not a type-erased call, and a key that is the same at every firing of the
// probe (`@[probename]`, none at all) was built and hashed once.
struct compiled_update {
  using policy = std::variant<Count, Sum, Min, Max, Avg, StdDev, Quantize, LQuantize, LLQuantize>;
  agg::dynamic_aggregation* aggregation = nullptr;
  policy fn;
  std::uint64_t step = 0;  // names the update in the per-thread cache of fixed rows
  std::uint32_t pc = 0;    // the update's operation, which a NULL string key's fault names
  agg::dynamic_key fixed_key;
  std::uint64_t fixed_hash = 0;
  std::vector<compiled_expr> keys;  // evaluated at each firing unless every key is fixed
  std::vector<agg::key_type> types;
  integer_operand value;
  integer_operand incr;

  void run(runner& r) const;  // compile.cpp
  /// Whether the update needs no closure: a fixed key, constants and arguments. A clause of
  /// such updates cannot fault, so its firing needs no runner (direct_update).
  bool is_direct() const {
    return keys.empty() && value.from != integer_operand::source::closure &&
           incr.from != integer_operand::source::closure;
  }

 private:
  std::uint64_t* fixed_row() const;
  std::uint64_t* keyed_row(const agg::dynamic_key& key) const;
  void add(std::uint64_t* row, std::int64_t x, std::int64_t by) const;
};

// A direct update as a firing runs it: flat in its probe's array, so that the firing follows no
// pointer to the compiled_update, and applied by a function made for its policy and operands (a
// template instance chosen when the engine is made) instead of a switch on the policy and
// tests of the operands' sources at every firing.
struct direct_update {
  using apply_fn = void (*)(const direct_update&, std::span<const std::int64_t> args);
  apply_fn apply = nullptr;
  agg::dynamic_aggregation* aggregation = nullptr;
  std::uint64_t step = 0;               // compiled_update::step
  const void* policy = nullptr;         // the policy compiled_update::fn holds
  const compiled_update* update = nullptr;  // the fixed key and its hash, for a row not cached yet
  std::int64_t value = 0;  // a constant, or an argument's index: apply knows which
  std::int64_t incr = 1;

  static direct_update of(const compiled_update& u);  // compile.cpp
};

struct compiled_clause {
  const ir::clause* clause = nullptr;
  std::uint32_t statement = 0;  // the statement it runs as for this probe (fault::statement)
  bool needs_lock = false;  // touches state shared across threads: runs under the engine's lock
  bool uses_scratch = false;  // ir::uses_scratch: its scratch memory starts empty and zeroed
  compiled_step predicate;  // empty when the clause has none
  std::vector<compiled_step> statements;
  // A clause that only updates aggregations (the commonest shape) has its updates here instead
  // of in statements: no record, no output, no type-erased call per update.
  std::vector<compiled_update> updates;
};

struct bound_probe {
  enum class kind : std::uint8_t { begin, end, error, tick, profile, site } type = kind::begin;
  probe_info info;
  std::vector<compiled_clause> compiled;  // info.clauses, compiled with this probe's names
  std::uint64_t period = 0;            // tick/profile
  probe_site* site = nullptr;
  // When every clause is direct updates only, with no predicate: all of them in program order,
  // which a firing applies in one loop with no runner. Empty otherwise.
  std::vector<direct_update> direct_updates;
};

}  // namespace detail

struct engine::state {
  ir::program program;
  engine_options options;
  std::vector<detail::bound_probe> probes;
  std::vector<std::unique_ptr<agg::dynamic_aggregation>> aggregations;  // aggsize-bounded
  std::uint64_t aggregation_drops_reported = 0;  // take_drops()' mark

  std::mutex mutex;  // variables, the buffer, faults
  std::vector<detail::value> globals;
  std::map<std::string, detail::value> variables;  // thread-locals and array elements
  std::size_t variable_bytes = 0;                   // what they hold, within dynvarsize
  std::size_t element_bytes = 0;  // what each of them costs: detail::dynamic_element_bytes
  std::atomic<std::uint64_t> dynamic_drops{0};      // elements refused for want of room
  std::uint64_t dynamic_drops_reported = 0;
  std::vector<firing> buffer;
  std::size_t buffered_bytes = 0;
  std::atomic<std::uint64_t> drops{0};
  std::uint64_t drops_reported = 0;  // take_drops()' mark
  std::vector<fault> faults;
  std::vector<bool> speculations;  // nspec buffers: in use, from speculation() to commit/discard
  std::atomic<std::uint64_t> failed_speculations{0};
  std::uint64_t failed_speculations_reported = 0;
  std::atomic<std::uint64_t> speculative_drops{0};  // firings with no room in their buffer (specsize)
  std::uint64_t speculative_drops_reported = 0;
  std::map<pid_t, std::string> strtok_rest;  // by thread: what strtok(NULL, ...) goes on with

  std::atomic<bool> exited{false};
  std::atomic<int> status{0};
  bool started = false;
  bool ended = false;

  std::mutex timer_mutex;
  std::condition_variable timer_wake;
  bool timers_stopping = false;
  std::vector<std::thread> timers;
  std::vector<probe_info> infos;

  std::string execname;
};

namespace detail {

// After exit(), only END and ERROR clauses run: a probe's firing stops here, as in DTrace.
inline bool stopped_by_exit(const engine::state& st, const bound_probe& probe) {
  return st.exited.load(std::memory_order_relaxed) && probe.type != bound_probe::kind::end &&
         probe.type != bound_probe::kind::error;
}

// A clock's time in ns.
inline std::uint64_t now(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

// One firing of a probe: its arguments, clause-local variables and the record being built, which
// the compiled clauses read and write.
class runner {
 public:
  /// The CPU the calling thread runs on, looked up only when a clause needs it.
  static constexpr std::uint32_t this_cpu = UINT32_MAX;

  /// `caller` is where the code that fired the probe goes on once it returns (what ustack()
  /// starts from); none for the engine's own timer threads.
  runner(engine::state& state, const bound_probe& probe, std::span<const std::int64_t> arguments,
         std::uint32_t cpu, const void* caller = nullptr)
      : st(state), args(arguments), caller(caller), probe_(probe), cpu_(cpu) {}

  // Runs the clauses of the probe, in program order.
  void run() {
    for (const auto& c : probe_.compiled) {
      if (stopped_by_exit(st, probe_)) return;
      std::unique_lock<std::mutex> lock(st.mutex, std::defer_lock);
      if (c.needs_lock) lock.lock();
      if (c.uses_scratch) scratch::mine().reset(st.program.scratchsize);
      try {
        if (c.predicate && !c.predicate(*this)) continue;
        if (!c.updates.empty()) {
          run_updates(*this, c.updates);
          continue;
        }
        record.assign(c.clause->data_size, std::byte{0});
        speculation = 0;
        bool output = c.clause->default_action;
        for (const auto& s : c.statements) output |= s(*this);
        if (output) emit(*c.clause);
      } catch (const clause_abandoned&) {
      } catch (const fault_signal& f) {
        if (!lock.owns_lock()) lock.lock();
        st.faults.push_back({c.clause->id, probe_.info.id, c.statement, f.pc, f.kind,
                             static_cast<std::uint64_t>(f.value), {}});
        lock.unlock();
        if (probe_.type != bound_probe::kind::error) error_probe(c, f);
      }
    }
  }

  std::uint32_t cpu() {
    if (cpu_ == this_cpu) {
      const int c = ::sched_getcpu();
      cpu_ = c < 0 ? 0 : static_cast<std::uint32_t>(c);
    }
    return cpu_;
  }

  /// `timestamp` in ns of CLOCK_MONOTONIC: read once per firing, at its first use, so that every
  /// clause of the firing sees the same value (as dtrace-utils caches it).
  std::int64_t timestamp() {
    if (timestamp_ == 0) timestamp_ = static_cast<std::int64_t>(now(CLOCK_MONOTONIC));
    return timestamp_;
  }

  /// `vtimestamp`: the thread's CPU time in ns, read once per firing too, as DTrace's moves only
  /// between firings.
  std::int64_t vtimestamp() {
    if (vtimestamp_ == 0) vtimestamp_ = static_cast<std::int64_t>(now(CLOCK_THREAD_CPUTIME_ID));
    return vtimestamp_;
  }

  engine::state& st;
  std::span<const std::int64_t> args;
  const void* caller;
  std::map<std::uint32_t, value> locals;  // this->x: kept from clause to clause of the firing
  std::vector<std::byte> record;  // the clause's data, laid out as its ir::records say
  std::uint32_t speculation = 0;  // the buffer speculate() sent the clause's data to
  // While a store's place is computed in an associative array's struct element (`a[i++].r[j] =
  // v`): the element, made first, which the address's root stands for (its key evaluated once).
  std::byte* made_element = nullptr;
  // The strings whose address the firing took (`(char *)s`): their bytes stay where they are
  // until it ends.
  std::deque<std::string> addressed;

 private:
  // DTrace's ERROR probe, as dtrace-utils fires it: arg1 the probe id, arg2 the statement id
  // (dt_clause_N), arg3 the pc, arg4 the fault kind (DTRACEFLT_*), arg5 the faulting value.
  void error_probe(const compiled_clause& c, const fault_signal& f) {
    for (const auto& b : st.probes)
      if (b.type == bound_probe::kind::error) {
        const std::int64_t error_args[] = {0, probe_.info.id, c.statement, f.pc, static_cast<std::int64_t>(f.kind),
                                           f.value};
        runner(st, b, error_args, cpu_, caller).run();
      }
  }

  void emit(const ir::clause& clause) {
    const std::size_t cost = clause.buffer_size;  // as DTrace's principal buffer counts it
    if (st.buffered_bytes + cost > st.options.bufsize) {
      st.drops.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    st.buffered_bytes += cost;
    st.buffer.push_back({clause.id, probe_.info.id, cpu(), record, speculation});
  }

  const bound_probe& probe_;
  std::uint32_t cpu_;
  std::int64_t timestamp_ = 0;
  std::int64_t vtimestamp_ = 0;
};

inline std::int64_t integer_operand::operator()(runner& r) const {
  return from == source::closure ? other(r).i : direct(r.args);
}


// Compiles one clause for one probe (compile.cpp).
compiled_clause compile_clause(engine::state& st, const bound_probe& probe, const ir::clause& c,
                               std::uint32_t statement);

// The process's DTPP_PROBE sites handed to an engine's program, once its BEGIN has run, and taken
// back, once no firing is under way in it (sites.cpp).
void attach_sites(engine::state& st);
void detach_sites(engine::state& st);

}  // namespace detail

}  // namespace dtpp::inproc
