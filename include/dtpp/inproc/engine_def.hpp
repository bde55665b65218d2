// The in-process engine's definitions. Included by dtpp/src.hpp only.
#pragma once

#include <fnmatch.h>
#include <sched.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "dtpp/agg/thread_index.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/inproc/probe.hpp"

namespace dtpp::inproc {

// ---- DTPP_PROBE sites ---------------------------------------------------------------------------

extern "C" {
// The linker defines these around the dtpp_probes section; weak, so that a program without a
// single DTPP_PROBE still links.
[[gnu::weak]] extern probe_site __start_dtpp_probes[];
[[gnu::weak]] extern probe_site __stop_dtpp_probes[];
}

std::span<probe_site> probe_sites() {
  if (__start_dtpp_probes == nullptr || __stop_dtpp_probes == nullptr) return {};
  return {__start_dtpp_probes, __stop_dtpp_probes};
}

namespace detail {

using ir::expr;
using kind_t = ir::expr::kind_t;

// A D value while a clause runs: an integer (its bits) or a string.
struct value {
  std::int64_t i = 0;
  std::string s;
};

// A fault stops the clause; the engine reports it as DTrace's ERROR probe would.
struct fault_signal {
  std::string what;
  std::int64_t code = 0;   ///< DTrace's DTRACEFLT_* number
  std::int64_t value = 0;  ///< the faulting address or value
};
inline constexpr std::int64_t fault_bad_address = 1;  // DTRACEFLT_BADADDR
inline constexpr std::int64_t fault_divide_by_zero = 4;  // DTRACEFLT_DIVZERO


inline std::uint64_t now(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

inline bool field_matches(const std::string& pattern, const std::string& text) {
  return pattern.empty() || ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// profile-N / tick-N period in nanoseconds (the checker has validated the name).
inline std::uint64_t period_of(const std::string& name) {
  const auto digits = name.substr(name.find('-') + 1);
  std::size_t n = 0;
  while (n < digits.size() && std::isdigit(static_cast<unsigned char>(digits[n]))) ++n;
  const double count = std::strtod(digits.substr(0, n).c_str(), nullptr);
  std::string suffix = digits.substr(n);
  for (auto& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  struct unit { const char* name; double ns; };
  static const unit units[] = {{"ns", 1}, {"nsec", 1}, {"us", 1e3}, {"usec", 1e3}, {"ms", 1e6},
                               {"msec", 1e6}, {"s", 1e9}, {"sec", 1e9}, {"m", 60e9}, {"min", 60e9},
                               {"h", 3600e9}, {"hour", 3600e9}, {"d", 86400e9}, {"day", 86400e9}};
  for (const auto& u : units)
    if (suffix == u.name) return static_cast<std::uint64_t>(count * u.ns);
  return static_cast<std::uint64_t>(1e9 / count);
}

// Reads a C string of this process without faulting on a bad address.
inline std::optional<std::string> read_string(std::uint64_t address, std::size_t limit) {
  std::string out;
  char chunk[256];
  while (out.size() < limit) {
    const auto want = std::min(sizeof chunk, limit - out.size());
    iovec local{chunk, want};
    iovec remote{reinterpret_cast<void*>(address + out.size()), want};
    const auto got = ::process_vm_readv(::getpid(), &local, 1, &remote, 1, 0);
    if (got <= 0) return out.empty() ? std::nullopt : std::optional<std::string>(out);
    const auto* nul = static_cast<const char*>(std::memchr(chunk, '\0', static_cast<std::size_t>(got)));
    out.append(chunk, nul ? static_cast<std::size_t>(nul - chunk) : static_cast<std::size_t>(got));
    if (nul) break;
  }
  return out;
}

struct bound_probe {
  enum class kind : std::uint8_t { begin, end, error, tick, profile, site } type = kind::begin;
  probe_info info;
  std::vector<std::uint32_t> clauses;  // indexes into program.clauses, in program order
  std::uint64_t period = 0;            // tick/profile
  probe_site* site = nullptr;
};

}  // namespace detail

struct engine::state {
  ir::program program;
  engine_options options;
  std::vector<detail::bound_probe> probes;
  std::vector<std::unique_ptr<agg::dynamic_aggregation>> aggregations;
  std::vector<bool> clause_needs_lock;

  std::mutex mutex;  // variables, the buffer, faults
  std::vector<detail::value> globals;
  std::map<std::string, detail::value> variables;  // thread-locals and array elements
  std::vector<firing> buffer;
  std::size_t buffered_bytes = 0;
  std::atomic<std::uint64_t> drops{0};
  std::uint64_t drops_reported = 0;  // take_drops()' mark
  std::vector<fault> faults;

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

namespace {
// The engine DTPP_PROBE sites fire into (one at a time per process), and the number of firings
// under way, which stopping waits to drain before the engine may go away.
// Counted per thread (spread over padded slots), so that firing threads never write one shared
// cache line.
std::atomic<engine::state*> active_engine{nullptr};
struct alignas(64) firing_count {
  std::atomic<std::uint64_t> value{0};
};
firing_count site_firings[256];

firing_count& my_firings() {
  thread_local firing_count* mine = nullptr;  // constant-initialized: no guard on the hot path
  if (mine == nullptr) [[unlikely]]
    mine = &site_firings[agg::detail::thread_index() % 256];
  return *mine;
}

void detach_sites(engine::state& st) {
  for (auto& b : st.probes)
    if (b.site) b.site->enabled.store(false, std::memory_order_relaxed);
  engine::state* expected = &st;
  active_engine.compare_exchange_strong(expected, nullptr);
  for (auto& c : site_firings)
    while (c.value.load(std::memory_order_acquire) != 0) std::this_thread::yield();
}
}  // namespace

namespace detail {

// One clause's execution: the probe that fired, its arguments, and clause-local variables.
class runner {
 public:
  /// The CPU the calling thread runs on, looked up only when a clause needs it.
  static constexpr std::uint32_t this_cpu = UINT32_MAX;

  runner(engine::state& st, const bound_probe& probe, std::span<const std::int64_t> args,
         std::uint32_t cpu)
      : st_(st), probe_(probe), args_(args), cpu_(cpu) {}

  // Runs the clauses of the probe, in program order.
  void run() {
    for (const auto index : probe_.clauses) {
      const bool is_end = probe_.type == bound_probe::kind::end;
      if (st_.exited.load(std::memory_order_relaxed) && !is_end && probe_.type != bound_probe::kind::error) return;
      const auto& clause = st_.program.clauses[index];
      locals_.clear();
      std::unique_lock<std::mutex> lock(st_.mutex, std::defer_lock);
      if (st_.clause_needs_lock[index]) lock.lock();
      try {
        if (clause.predicate && !truth(*clause.predicate)) continue;
        record_.assign(clause.data_size, std::byte{0});
        bool output = clause.default_action;
        for (const auto& s : clause.statements) output |= statement(s);
        if (output) emit(clause);
      } catch (const fault_signal& f) {
        if (!lock.owns_lock()) lock.lock();
        st_.faults.push_back({clause.id, probe_.info.id, f.what});
        lock.unlock();
        if (probe_.type != bound_probe::kind::error) error_probe(clause, f);
      }
    }
  }

 private:
  // DTrace's ERROR probe: arg1 the probe id, arg2 the clause (EPID), arg3 the offset (0 here),
  // arg4 the fault code, arg5 the faulting value.
  void error_probe(const ir::clause& clause, const fault_signal& f) {
    for (const auto& b : st_.probes)
      if (b.type == bound_probe::kind::error) {
        const std::int64_t error_args[] = {0, probe_.info.id, clause.id, 0, f.code, f.value};
        runner(st_, b, error_args, cpu_).run();
      }
  }

  std::uint32_t cpu() {
    if (cpu_ == this_cpu) {
      const int c = ::sched_getcpu();
      cpu_ = c < 0 ? 0 : static_cast<std::uint32_t>(c);
    }
    return cpu_;
  }

  bool truth(const expr& e) {
    const auto v = eval(e);
    return e.t.is_string() ? true : v.i != 0;
  }

  void emit(const ir::clause& clause) {
    const std::size_t cost = record_.size() + 16;
    if (st_.buffered_bytes + cost > st_.options.bufsize) {
      st_.drops.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    st_.buffered_bytes += cost;
    st_.buffer.push_back({clause.id, probe_.info.id, cpu(), record_});
  }

  void put(const ir::record& r, const value& v, const ir::type& t) {
    if (r.offset + r.size > record_.size()) return;
    auto* at = record_.data() + r.offset;
    if (t.is_string()) {
      std::memcpy(at, v.s.data(), std::min<std::size_t>(v.s.size(), r.size > 0 ? r.size - 1 : 0));
    } else {
      const auto bits = static_cast<std::uint64_t>(v.i);
      std::memcpy(at, &bits, std::min<std::size_t>(r.size, 8));  // little-endian: low bytes first
    }
  }

  // Runs one statement; true when it added data to the clause's record.
  bool statement(const ir::statement& s) {
    switch (s.kind) {
      case ir::action::expression:
        (void)eval(s.args[0]);
        return false;
      case ir::action::aggregate:
        aggregate(s);
        return false;
      case ir::action::printa:
      case ir::action::clear:
      case ir::action::denormalize:
        for (std::size_t i = 0; i < s.records.size(); ++i) {
          const auto id = s.kind == ir::action::printa ? s.aggregations[i] : s.aggregation;
          put(s.records[i], {id, {}}, s.records[i].t);
        }
        return true;
      case ir::action::trunc:
      case ir::action::normalize:
        put(s.records[0], {s.aggregation, {}}, s.records[0].t);
        if (s.records.size() > 1) put(s.records[1], eval(s.args[0]), s.records[1].t);
        return true;
      case ir::action::exit: {
        const auto v = eval(s.args[0]);
        put(s.records[0], v, s.records[0].t);
        st_.status.store(static_cast<int>(v.i), std::memory_order_relaxed);
        st_.exited.store(true, std::memory_order_release);
        return true;
      }
      case ir::action::setopt:
        return false;
      case ir::action::stack:
      case ir::action::ustack:
        return true;  // no frames in-process: the record stays zero
      case ir::action::trace:
      case ir::action::printf:
        for (std::size_t i = 0; i < s.args.size(); ++i) put(s.records[i], eval(s.args[i]), s.args[i].t);
        return true;
    }
    return false;
  }

  void aggregate(const ir::statement& s) {
    auto& a = *st_.aggregations[s.aggregation - 1];
    // Reused keys, one per key count: no allocation once their strings have grown.
    thread_local std::vector<agg::dynamic_key> scratch;
    if (scratch.size() <= s.keys.size()) scratch.resize(s.keys.size() + 1);
    auto& key = scratch[s.keys.size()];
    key.records.resize(s.keys.size());
    const auto& types = a.desc().keys;
    for (std::size_t i = 0; i < s.keys.size(); ++i) {
      auto& r = key.records[i];
      r.type = types[i];
      const auto v = eval(s.keys[i]);
      if (types[i].kind == agg::key_type::category::string) {
        r.string.assign(v.s);
        r.integer = 0;
      } else {
        r.string.clear();
        r.integer = static_cast<std::uint64_t>(v.i) &
                    (types[i].size >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * types[i].size)) - 1);
      }
    }
    const std::int64_t x = s.args.empty() ? 0 : eval(s.args[0]).i;
    const std::int64_t incr = s.args.size() > 1 ? eval(s.args[1]).i : 1;
    a.add(key, x, incr);
  }

  // ---- expressions ---------------------------------------------------------------------------

  std::string variable_key(const expr& e) {
    // Thread-locals are per thread; array elements per key.
    std::string k = std::to_string(e.index);
    const auto& v = st_.program.variables[e.index];
    if (v.where == ir::scope::thread) k += "@" + std::to_string(::gettid());
    for (const auto& key : e.kids) {
      const auto kv = eval(key);
      k += key.t.is_string() ? "|s" + kv.s : "|i" + std::to_string(kv.i);
      k.push_back('\0');
    }
    return k;
  }

  value load(const expr& e) {
    const auto& v = st_.program.variables[e.index];
    if (v.where == ir::scope::clause) return locals_[e.index];
    if (v.where == ir::scope::global && v.keys.empty()) {
      if (st_.globals.size() <= e.index) return {};
      return st_.globals[e.index];
    }
    const auto it = st_.variables.find(variable_key(e));
    return it == st_.variables.end() ? value{} : it->second;
  }

  void store(const expr& e, value x) {
    const auto& v = st_.program.variables[e.index];
    if (v.where == ir::scope::clause) {
      locals_[e.index] = std::move(x);
    } else if (v.where == ir::scope::global && v.keys.empty()) {
      if (st_.globals.size() <= e.index) st_.globals.resize(st_.program.variables.size());
      st_.globals[e.index] = std::move(x);
    } else {
      // Assigning 0 (or "") deletes an element, as in DTrace's dynamic variables.
      const auto key = variable_key(e);
      if ((v.value.is_string() && x.s.empty()) || (!v.value.is_string() && x.i == 0)) st_.variables.erase(key);
      else st_.variables[key] = std::move(x);
    }
  }

  value builtin(const expr& e) {
    using ir::builtin;
    switch (static_cast<builtin>(e.index)) {
      case builtin::arg: return {static_cast<std::size_t>(e.value) < args_.size() ? args_[e.value] : 0, {}};
      case builtin::timestamp: return {static_cast<std::int64_t>(now(CLOCK_MONOTONIC)), {}};
      case builtin::vtimestamp: return {static_cast<std::int64_t>(now(CLOCK_THREAD_CPUTIME_ID)), {}};
      case builtin::walltimestamp: return {static_cast<std::int64_t>(now(CLOCK_REALTIME)), {}};
      case builtin::pid: return {::getpid(), {}};
      case builtin::ppid: return {::getppid(), {}};
      case builtin::tid: return {::gettid(), {}};
      case builtin::uid: return {::getuid(), {}};
      case builtin::gid: return {::getgid(), {}};
      case builtin::cpu: return {cpu(), {}};
      case builtin::execname: return {0, st_.execname};
      case builtin::probeprov: return {0, probe_.info.provider};
      case builtin::probemod: return {0, probe_.info.module};
      case builtin::probefunc: return {0, probe_.info.function};
      case builtin::probename: return {0, probe_.info.name};
      case builtin::epid: return {0, {}};
      case builtin::id: return {probe_.info.id, {}};
      default: return {};
    }
  }

  static std::int64_t divide(const std::string& op, std::int64_t a, std::int64_t b, const ir::type& t) {
    if (b == 0) throw fault_signal{"divide-by-zero", fault_divide_by_zero, 0};
    const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
    if (t.is_signed) {
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return op == "/" ? a : 0;
      return op == "/" ? a / b : a % b;
    }
    return static_cast<std::int64_t>(op == "/" ? ua / ub : ua % ub);
  }

  static std::int64_t arithmetic(const std::string& op, std::int64_t a, std::int64_t b, const ir::type& t) {
    const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
    if (op == "+" || op == "+=") return static_cast<std::int64_t>(ua + ub);
    if (op == "-" || op == "-=") return static_cast<std::int64_t>(ua - ub);
    if (op == "*" || op == "*=") return static_cast<std::int64_t>(ua * ub);
    if (op == "/" || op == "/=") return divide("/", a, b, t);
    if (op == "%" || op == "%=") return divide("%", a, b, t);
    if (op == "&" || op == "&=") return a & b;
    if (op == "|" || op == "|=") return a | b;
    if (op == "^" || op == "^=") return a ^ b;
    if (op == "<<" || op == "<<=") return static_cast<std::int64_t>(ua << (ub & 63));
    if (op == ">>" || op == ">>=")
      return t.is_signed ? a >> (ub & 63) : static_cast<std::int64_t>(ua >> (ub & 63));
    return b;  // "="
  }

  value eval(const expr& e) {
    switch (e.kind) {
      case kind_t::constant: return {e.value, {}};
      case kind_t::string: return {0, e.text};
      case kind_t::builtin: return builtin(e);
      case kind_t::variable: return load(e);
      case kind_t::unary: {
        const auto v = eval(e.kids[0]);
        if (e.text == "!") return {e.kids[0].t.is_string() ? 0 : v.i == 0, {}};
        // D computes in 64 bits; only stores, casts and records narrow a value to its type.
        if (e.text == "-") return {static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v.i)), {}};
        if (e.text == "~") return {~v.i, {}};
        return {v.i, {}};
      }
      case kind_t::binary: {
        const auto& op = e.text;
        if (op == "&&") return {truth(e.kids[0]) && truth(e.kids[1]), {}};
        if (op == "||") return {truth(e.kids[0]) || truth(e.kids[1]), {}};
        if (op == "^^") return {truth(e.kids[0]) != truth(e.kids[1]), {}};
        const auto a = eval(e.kids[0]);
        const auto b = eval(e.kids[1]);
        if (e.kids[0].t.is_string()) {
          const int c = a.s.compare(b.s);
          if (op == "==") return {c == 0, {}};
          if (op == "!=") return {c != 0, {}};
          if (op == "<") return {c < 0, {}};
          if (op == "<=") return {c <= 0, {}};
          if (op == ">") return {c > 0, {}};
          return {c >= 0, {}};
        }
        const auto& t = e.kids[0].t;
        const bool s = t.is_signed;
        const auto ua = static_cast<std::uint64_t>(a.i), ub = static_cast<std::uint64_t>(b.i);
        if (op == "==") return {a.i == b.i, {}};
        if (op == "!=") return {a.i != b.i, {}};
        if (op == "<") return {s ? a.i < b.i : ua < ub, {}};
        if (op == "<=") return {s ? a.i <= b.i : ua <= ub, {}};
        if (op == ">") return {s ? a.i > b.i : ua > ub, {}};
        if (op == ">=") return {s ? a.i >= b.i : ua >= ub, {}};
        return {arithmetic(op, a.i, b.i, e.t), {}};
      }
      case kind_t::conditional: return truth(e.kids[0]) ? eval(e.kids[1]) : eval(e.kids[2]);
      case kind_t::assign: {
        auto v = eval(e.kids[1]);
        if (e.text != "=") v.i = ir::fit(arithmetic(e.text, load(e.kids[0]).i, v.i, e.t), e.t);
        else if (!e.t.is_string()) v.i = ir::fit(v.i, e.t);
        store(e.kids[0], v);
        return v;
      }
      case kind_t::increment: {
        const auto old = load(e.kids[0]);
        const auto updated = value{ir::fit(old.i + (e.text == "++" ? 1 : -1), e.t), {}};
        store(e.kids[0], updated);
        return e.value ? updated : old;
      }
      case kind_t::cast: return {ir::fit(eval(e.kids[0]).i, e.t), {}};
      case kind_t::stringof: {
        const auto v = eval(e.kids[0]);
        return {0, e.kids[0].t.is_string() ? v.s : std::to_string(v.i)};
      }
      case kind_t::call: return call(e);
    }
    return {};
  }

  value call(const expr& e) {
    const auto& f = e.text;
    std::vector<value> a;
    for (const auto& k : e.kids) a.push_back(eval(k));
    const auto strsize = static_cast<std::size_t>(e.t.is_string() ? e.t.size : 256);
    const auto clip = [&](std::string s) {
      if (s.size() >= strsize) s.resize(strsize - 1);
      return value{0, std::move(s)};
    };
    if (f == "strlen") return {static_cast<std::int64_t>(a[0].s.size()), {}};
    if (f == "strjoin") return clip(a[0].s + a[1].s);
    if (f == "substr") {
      const auto n = static_cast<std::int64_t>(a[0].s.size());
      auto start = a[1].i < 0 ? std::max<std::int64_t>(n + a[1].i, 0) : std::min(a[1].i, n);
      auto length = a.size() > 2 ? a[2].i : n;
      if (length < 0) length = std::max<std::int64_t>(n + length - start, 0);
      return clip(a[0].s.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(length)));
    }
    if (f == "strchr" || f == "strrchr") {
      const auto c = static_cast<char>(a[1].i);
      const auto at = f == "strchr" ? a[0].s.find(c) : a[0].s.rfind(c);
      return {0, at == std::string::npos ? std::string() : a[0].s.substr(at)};
    }
    if (f == "strstr") {
      const auto at = a[0].s.find(a[1].s);
      return {0, at == std::string::npos ? std::string() : a[0].s.substr(at)};
    }
    if (f == "index" || f == "rindex") {
      std::size_t from = f == "index" ? 0 : std::string::npos;
      if (a.size() > 2) from = static_cast<std::size_t>(std::max<std::int64_t>(a[2].i, 0));
      const auto at = f == "index" ? a[0].s.find(a[1].s, from) : a[0].s.rfind(a[1].s, from);
      return {at == std::string::npos ? -1 : static_cast<std::int64_t>(at), {}};
    }
    if (f == "lltostr") return {0, std::to_string(a[0].i)};
    if (f == "basename" || f == "dirname") {
      std::string s = a[0].s;
      while (s.size() > 1 && s.back() == '/') s.pop_back();
      const auto slash = s.rfind('/');
      if (f == "basename") return {0, slash == std::string::npos ? s : s.substr(slash + 1)};
      if (slash == std::string::npos) return {0, "."};
      return {0, slash == 0 ? "/" : s.substr(0, slash)};
    }
    if (f == "copyinstr") {
      const auto limit = a.size() > 1 ? static_cast<std::size_t>(a[1].i) : strsize - 1;
      const auto s = read_string(static_cast<std::uint64_t>(a[0].i), std::min(limit, strsize - 1));
      if (!s) {
        char what[64];
        std::snprintf(what, sizeof what, "invalid address (0x%llx)", static_cast<unsigned long long>(a[0].i));
        throw fault_signal{what, fault_bad_address, a[0].i};
      }
      return {0, *s};
    }
    if (f == "rand") {
      thread_local std::minstd_rand generator(static_cast<unsigned>(now(CLOCK_MONOTONIC)));
      return {static_cast<std::int32_t>(generator()), {}};
    }
    return {};
  }

  engine::state& st_;
  const bound_probe& probe_;
  std::span<const std::int64_t> args_;
  std::uint32_t cpu_;
  std::map<std::uint32_t, value> locals_;
  std::vector<std::byte> record_;
};

// Whether a clause touches state shared across threads (and so runs under the engine's lock).
inline bool needs_lock(const ir::clause& c, const ir::program& p) {
  bool shared = c.default_action;
  const auto visit = [&](const auto& self, const expr& e) -> void {
    if (e.kind == kind_t::variable && p.variables[e.index].where != ir::scope::clause) shared = true;
    for (const auto& k : e.kids) self(self, k);
  };
  if (c.predicate) visit(visit, *c.predicate);
  for (const auto& s : c.statements) {
    if (!s.records.empty()) shared = true;
    for (const auto& e : s.args) visit(visit, e);
    for (const auto& e : s.keys) visit(visit, e);
  }
  return shared;
}

}  // namespace detail

engine::engine(const ir::program& program, engine_options options) : state_(std::make_unique<state>()) {
  auto& st = *state_;
  st.program = program;
  st.options = std::move(options);
  if (st.options.cpus == 0) st.options.cpus = std::max(1u, std::thread::hardware_concurrency());
  {
    char comm[64] = {};
    std::FILE* f = std::fopen("/proc/self/comm", "r");
    if (f && std::fgets(comm, sizeof comm, f)) st.execname = comm;
    if (f) std::fclose(f);
    while (!st.execname.empty() && st.execname.back() == '\n') st.execname.pop_back();
  }
  for (const auto& d : program.aggregations) st.aggregations.push_back(std::make_unique<agg::dynamic_aggregation>(d));
  for (const auto& c : program.clauses) st.clause_needs_lock.push_back(detail::needs_lock(c, program));
  st.globals.resize(program.variables.size());

  using detail::bound_probe;
  std::map<std::string, std::size_t> by_name;  // provider:module:function:name -> probes index
  const auto bind = [&](bound_probe candidate, std::uint32_t clause) {
    const auto key = candidate.info.provider + ":" + candidate.info.module + ":" + candidate.info.function + ":" + candidate.info.name;
    auto it = by_name.find(key);
    if (it == by_name.end()) {
      candidate.info.id = static_cast<std::uint32_t>(st.probes.size() + 1);
      st.probes.push_back(std::move(candidate));
      it = by_name.emplace(key, st.probes.size() - 1).first;
    }
    auto& clauses = st.probes[it->second].clauses;
    if (clauses.empty() || clauses.back() != clause) clauses.push_back(clause);
  };
  for (std::uint32_t ci = 0; ci < program.clauses.size(); ++ci) {
    for (const auto& p : program.clauses[ci].probes) {
      bool matched = false;
      const auto matches = [&](const char* prov, const std::string& mod, const std::string& func, const std::string& name) {
        return detail::field_matches(p.provider, prov) && detail::field_matches(p.module, mod) &&
               detail::field_matches(p.function, func) && detail::field_matches(p.name, name);
      };
      for (const auto* special : {"BEGIN", "END", "ERROR"})
        if (matches("dtrace", "", "", special)) {
          bound_probe b;
          b.type = special[0] == 'B' ? bound_probe::kind::begin : special[0] == 'E' && special[1] == 'N' ? bound_probe::kind::end : bound_probe::kind::error;
          b.info = {0, "dtrace", "", "", special};
          bind(std::move(b), ci);
          matched = true;
        }
      const bool profile_name = p.name.rfind("tick-", 0) == 0 || p.name.rfind("profile-", 0) == 0;
      if (profile_name && p.name.find_first_of("*?[") == std::string::npos && matches("profile", "", "", p.name)) {
        bound_probe b;
        b.type = p.name[0] == 't' ? bound_probe::kind::tick : bound_probe::kind::profile;
        b.period = detail::period_of(p.name);
        b.info = {0, "profile", "", "", p.name};
        bind(std::move(b), ci);
        matched = true;
      }
      for (auto& site : probe_sites())
        if (matches(site.provider, st.options.program_name, site.function, site.name)) {
          bound_probe b;
          b.type = bound_probe::kind::site;
          b.site = &site;
          b.info = {0, site.provider, st.options.program_name, site.function, site.name};
          bind(std::move(b), ci);
          matched = true;
        }
      if (!matched)
        throw engine_error("probe description " + p.text() + " does not match any probes" +
                           (p.provider.empty() || p.provider == "syscall" || p.provider == "pid" ||
                                    p.provider.rfind("pid", 0) == 0 || p.provider == "fbt" || p.provider == "sdt"
                                ? " in this process (kernel probes need the kernel shim, issue #5)"
                                : ""));
    }
  }
  for (const auto& b : st.probes) st.infos.push_back(b.info);
}

engine::~engine() {
  auto& st = *state_;
  {
    std::lock_guard lock(st.timer_mutex);
    st.timers_stopping = true;
  }
  st.timer_wake.notify_all();
  for (auto& t : st.timers) t.join();
  detach_sites(st);
}

std::vector<probe_info> available_probes(const engine_options& options) {
  std::vector<probe_info> out;
  const auto add = [&](const char* provider, std::string module, std::string function, std::string name) {
    out.push_back({static_cast<std::uint32_t>(out.size() + 1), provider, std::move(module),
                   std::move(function), std::move(name)});
  };
  for (const char* name : {"BEGIN", "END", "ERROR"}) add("dtrace", "", "", name);
  for (const char* name : {"profile-97", "profile-199", "profile-499", "profile-997", "profile-1999",
                           "profile-4001", "profile-4999", "tick-1", "tick-10", "tick-100",
                           "tick-500", "tick-1000", "tick-5000"})
    add("profile", "", "", name);
  for (const auto& site : probe_sites()) add(site.provider, options.program_name, site.function, site.name);
  return out;
}

const ir::program& engine::program() const { return state_->program; }

const std::vector<probe_info>& engine::probes() const { return state_->infos; }

void engine::fire(std::uint32_t probe, std::span<const std::int64_t> args) {
  auto& st = *state_;
  if (probe == 0 || probe > st.probes.size()) return;
  detail::runner(st, st.probes[probe - 1], args, detail::runner::this_cpu).run();
}

void engine::go() {
  auto& st = *state_;
  if (st.started) return;
  st.started = true;
  using kind = detail::bound_probe::kind;
  for (const auto& b : st.probes)
    if (b.type == kind::begin) detail::runner(st, b, {}, 0).run();
  if (st.exited.load()) return;
  engine::state* none = nullptr;
  if (!active_engine.compare_exchange_strong(none, state_.get()))
    throw engine_error("another D program already has this process's DTPP_PROBE sites");
  for (auto& b : st.probes)
    if (b.site) {
      b.site->probe = b.info.id;
      b.site->enabled.store(true, std::memory_order_release);
    }
  for (const auto& b : st.probes) {
    if (b.type != kind::tick && b.type != kind::profile) continue;
    st.timers.emplace_back([&st, &b] {
      auto next = std::chrono::steady_clock::now();
      std::unique_lock lock(st.timer_mutex);
      while (!st.timers_stopping) {
        next += std::chrono::nanoseconds(b.period);
        if (st.timer_wake.wait_until(lock, next, [&] { return st.timers_stopping; })) break;
        lock.unlock();
        if (!st.exited.load(std::memory_order_acquire)) {
          // profile-N fires on every CPU, tick-N on one.
          const unsigned cpus = b.type == kind::profile ? st.options.cpus : 1;
          for (unsigned cpu = 0; cpu < cpus; ++cpu) detail::runner(st, b, {}, cpu).run();
        }
        lock.lock();
      }
    });
  }
}

void engine::stop() {
  auto& st = *state_;
  {
    std::lock_guard lock(st.timer_mutex);
    st.timers_stopping = true;
  }
  st.timer_wake.notify_all();
  for (auto& t : st.timers) t.join();
  st.timers.clear();
  detach_sites(st);
  if (st.ended) return;
  st.ended = true;
  for (const auto& b : st.probes)
    if (b.type == detail::bound_probe::kind::end) detail::runner(st, b, {}, 0).run();
}

bool engine::exited() const { return state_->exited.load(std::memory_order_acquire); }
int engine::exit_status() const { return state_->status.load(); }

std::vector<firing> engine::take_records() {
  std::lock_guard lock(state_->mutex);
  state_->buffered_bytes = 0;
  return std::exchange(state_->buffer, {});
}

std::vector<fault> engine::take_faults() {
  std::lock_guard lock(state_->mutex);
  return std::exchange(state_->faults, {});
}

std::uint64_t engine::drops() const { return state_->drops.load(); }

std::vector<drop_count> engine::take_drops() {
  const auto total = state_->drops.load();
  const auto fresh = total - std::exchange(state_->drops_reported, total);
  if (fresh == 0) return {};
  return {{drop_count::kind::principal, 0, fresh}};
}

agg::dynamic_aggregation& engine::aggregation(std::uint32_t varid) { return *state_->aggregations.at(varid - 1); }

void fire(probe_site& site, std::span<const std::int64_t> args) {
  auto& count = my_firings();
  count.value.fetch_add(1, std::memory_order_acquire);
  auto* st = active_engine.load(std::memory_order_acquire);
  if (st && site.enabled.load(std::memory_order_acquire) && site.probe != 0 &&
      site.probe <= st->probes.size())
    detail::runner(*st, st->probes[site.probe - 1], args, detail::runner::this_cpu).run();
  count.value.fetch_sub(1, std::memory_order_release);
}

}  // namespace dtpp::inproc
