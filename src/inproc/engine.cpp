// The in-process engine: probes bound to clauses, timers, go and stop, records, faults, drops,
// and the factory consumers choose it by.

#include <fnmatch.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <utility>

#include "dtpp/engine/probe_ids.hpp"
#include "dtpp/ir/period.hpp"
#include "state.hpp"

namespace dtpp::inproc {

namespace detail {

inline bool field_matches(const std::string& pattern, const std::string& text) {
  return pattern.empty() || ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// Whether a description names one of this process's DTPP_PROBE sites (whatever the module the
// consumer gives them): only this engine can fire those, so the program runs here, its profile-N
// probes included.
bool names_probe_site(const ir::probe& d) {
  for (const auto& site : probe_sites())
    if (field_matches(d.provider, site.provider) && field_matches(d.function, site.function) &&
        field_matches(d.name, site.name))
      return true;
  return false;
}

// What each thread-local and associative array element costs of dynvarsize, as dtrace-utils
// sizes its one map of them: the largest key tuple (the variable's 4-byte id, each key at its
// alignment, a string's strsize + 1 bytes, then an 8-byte thread key) plus the largest value (a
// struct's or union's own size, a string's strsize + 1). Every element costs the same, so that a
// small dynvarsize holds as many as DTrace's.
std::size_t dynamic_element_bytes(const ir::program& program) {
  std::size_t tuple = 0, value = 0;
  for (const auto& v : program.variables) {
    if (v.where != ir::scope::thread && v.keys.empty()) continue;
    value = std::max<std::size_t>(value, v.value.size);
    if (v.keys.empty()) continue;
    std::size_t size = 4;
    for (const auto& k : v.keys) {
      if (k.is_string()) {
        size += k.size;
      } else {
        const std::size_t width = std::max<std::size_t>(k.size, 1);
        size = (size + width - 1) / width * width + width;
      }
    }
    tuple = std::max(tuple, size + 8);
  }
  return tuple + value;
}

}  // namespace detail

engine::engine(const ir::program& program, engine_options options) : state_(std::make_unique<state>()) {
  auto& st = *state_;
  st.program = program;
  st.options = std::move(options);
  if (st.options.cpus == 0) st.options.cpus = std::max(1u, std::thread::hardware_concurrency());
  if (st.options.cpu && *st.options.cpu >= st.options.cpus)
    throw engine_error("-x cpu=" + std::to_string(*st.options.cpu) + ": no such CPU");
  {
    char comm[64] = {};
    std::FILE* f = std::fopen("/proc/self/comm", "r");
    if (f && std::fgets(comm, sizeof comm, f)) st.execname = comm;
    if (f) std::fclose(f);
    while (!st.execname.empty() && st.execname.back() == '\n') st.execname.pop_back();
  }
  for (const auto& d : program.aggregations) {
    st.aggregations.push_back(std::make_unique<agg::dynamic_aggregation>(d));
    st.aggregations.back()->limit_bytes(st.options.aggsize);
  }
  st.globals.resize(program.variables.size());
  st.element_bytes = detail::dynamic_element_bytes(program);
  st.speculations.assign(st.options.nspec, false);

  using detail::bound_probe;
  std::map<std::string, std::size_t> by_name;  // provider:module:function:name -> probes index
  // Ids as available_probes() lists them; another profile rate's after the whole list.
  const auto sites = probe_sites();
  auto unlisted_id = dtpp::engine::first_engine_id + static_cast<std::uint32_t>(sites.size());
  const auto id_of = [&](const bound_probe& b) {
    if (b.site) return dtpp::engine::first_engine_id + static_cast<std::uint32_t>(b.site - sites.data());
    const auto listed = dtpp::engine::listed_id(b.info.provider, b.info.name);
    return listed ? listed : unlisted_id++;
  };
  const auto bind = [&](bound_probe candidate, std::uint32_t clause, std::uint32_t statement) {
    const auto key = candidate.info.provider + ":" + candidate.info.module + ":" + candidate.info.function + ":" + candidate.info.name;
    auto it = by_name.find(key);
    if (it == by_name.end()) {
      candidate.info.id = id_of(candidate);
      st.probes.push_back(std::move(candidate));
      it = by_name.emplace(key, st.probes.size() - 1).first;
    }
    auto& info = st.probes[it->second].info;
    if (info.clauses.empty() || info.clauses.back() != clause) {
      info.clauses.push_back(clause);
      info.statements.push_back(statement);
    }
  };
  for (std::uint32_t ci = 0; ci < program.clauses.size(); ++ci) {
    for (std::size_t pi = 0; pi < program.clauses[ci].probes.size(); ++pi) {
      const auto& p = program.clauses[ci].probes[pi];
      const auto statement = ir::statement_id(program, ci, pi);
      bool matched = false;
      const auto matches = [&](const char* prov, const std::string& mod, const std::string& func, const std::string& name) {
        return detail::field_matches(p.provider, prov) && detail::field_matches(p.module, mod) &&
               detail::field_matches(p.function, func) && detail::field_matches(p.name, name);
      };
      for (const auto* special : {"BEGIN", "END", "ERROR"})
        if (matches("dtrace", "", "", special)) {
          bound_probe b;
          b.type = special[0] == 'B' ? bound_probe::kind::begin : special[0] == 'E' && special[1] == 'N' ? bound_probe::kind::end : bound_probe::kind::error;
          b.info = {0, "dtrace", "", "", special, {}, {}};
          bind(std::move(b), ci, statement);
          matched = true;
        }
      const bool profile_name = p.name.rfind("tick-", 0) == 0 || p.name.rfind("profile-", 0) == 0;
      if (profile_name && p.name.find_first_of("*?[") == std::string::npos && matches("profile", "", "", p.name)) {
        bound_probe b;
        b.type = p.name[0] == 't' ? bound_probe::kind::tick : bound_probe::kind::profile;
        b.period = ir::period_of(p.name);
        b.info = {0, "profile", "", "", p.name, {}, {}};
        bind(std::move(b), ci, statement);
        matched = true;
      }
      for (auto& site : probe_sites())
        if (matches(site.provider, st.options.program_name, site.function, site.name)) {
          bound_probe b;
          b.type = bound_probe::kind::site;
          b.site = &site;
          b.info = {0, site.provider, st.options.program_name, site.function, site.name, {}, {}};
          bind(std::move(b), ci, statement);
          matched = true;
        }
      if (!matched && !st.options.zdefs)
        throw engine_error("probe description " + p.text() + " does not match any probes" +
                           (p.provider == "syscall" || p.provider == "pid" ||
                                    p.provider.rfind("pid", 0) == 0 || p.provider == "fbt" || p.provider == "sdt"
                                ? " in this process (kernel probes need the kernel engine, dtpp::kernel::driver)"
                                : ""),
                           p.where, "D_PDESC_ZERO");
    }
  }
  std::sort(st.probes.begin(), st.probes.end(), [](const bound_probe& a, const bound_probe& b) { return a.info.id < b.info.id; });
  for (auto& b : st.probes) {
    for (std::size_t i = 0; i < b.info.clauses.size(); ++i)
      b.compiled.push_back(detail::compile_clause(st, b, st.program.clauses[b.info.clauses[i]], b.info.statements[i]));
    const bool direct = b.type == detail::bound_probe::kind::site &&
                        std::all_of(b.compiled.begin(), b.compiled.end(), [](const auto& c) {
                          return !c.predicate && !c.needs_lock && !c.updates.empty() &&
                                 std::all_of(c.updates.begin(), c.updates.end(),
                                             [](const auto& u) { return u.is_direct(); });
                        });
    if (direct)
      for (const auto& c : b.compiled)
        for (const auto& u : c.updates) b.direct_updates.push_back(detail::direct_update::of(u));
    st.infos.push_back(b.info);
  }
}

engine::~engine() {
  auto& st = *state_;
  {
    std::lock_guard lock(st.timer_mutex);
    st.timers_stopping = true;
  }
  st.timer_wake.notify_all();
  for (auto& t : st.timers) t.join();
  detail::detach_sites(st);
}

std::vector<probe_info> available_probes(const engine_options& options) {
  std::vector<probe_info> out;
  const auto add = [&](const char* provider, std::string module, std::string function, std::string_view name) {
    out.push_back({static_cast<std::uint32_t>(out.size() + 1), provider, std::move(module),
                   std::move(function), std::string(name), {}, {}});
  };
  for (const auto name : dtpp::engine::dtrace_probes) add("dtrace", "", "", name);
  for (const auto name : dtpp::engine::listed_profile_probes) add("profile", "", "", name);
  for (const auto& site : probe_sites()) add(site.provider, options.program_name, site.function, site.name);
  return out;
}

const ir::program& engine::program() const { return state_->program; }

const std::vector<probe_info>& engine::probes() const { return state_->infos; }

void engine::fire(std::uint32_t probe, std::span<const std::int64_t> args) {
  auto& st = *state_;
  // The probes are kept in id order (the constructor sorts them): a binary search, not a scan.
  const auto bound = std::lower_bound(st.probes.begin(), st.probes.end(), probe,
                                      [](const auto& b, std::uint32_t id) { return b.info.id < id; });
  if (bound == st.probes.end() || bound->info.id != probe) return;
  auto cpu = detail::runner::this_cpu;
  if (st.options.cpu) {
    const int here = ::sched_getcpu();
    if (here < 0 || static_cast<std::uint32_t>(here) != *st.options.cpu) return;
    cpu = *st.options.cpu;
  }
  detail::runner(st, *bound, args, cpu, __builtin_return_address(0)).run();
}

void engine::go() {
  auto& st = *state_;
  if (st.started) return;
  // As dtrace-utils, which cannot make its map of dynamic variables without room for one.
  if (st.element_bytes > st.options.dynvarsize) throw engine_error("Enabling exceeds size of buffer");
  st.started = true;
  using kind = detail::bound_probe::kind;
  // BEGIN and END report CPU 0, as the kernel engine runs them, or -x cpu's, the one CPU traced.
  for (const auto& b : st.probes)
    if (b.type == kind::begin)
      detail::runner(st, b, {}, st.options.cpu.value_or(0), __builtin_return_address(0)).run();
  if (st.exited.load()) return;
  detail::attach_sites(st);
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
          // profile-N fires on every CPU, tick-N on one (both on -x cpu's alone). arg0 is the
          // kernel's program counter (none: the timer thread runs in user space), arg1 the user
          // one: the timer's own.
          const unsigned first = st.options.cpu.value_or(0);
          const unsigned cpus = b.type == kind::profile && !st.options.cpu ? st.options.cpus : 1;
          const std::int64_t pcs[] = {0, static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)))};
          for (unsigned cpu = first; cpu < first + cpus; ++cpu) detail::runner(st, b, pcs, cpu).run();
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
  detail::detach_sites(st);
  if (st.ended) return;
  st.ended = true;
  for (const auto& b : st.probes)
    if (b.type == detail::bound_probe::kind::end)
      detail::runner(st, b, {}, st.options.cpu.value_or(0), __builtin_return_address(0)).run();
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
  std::vector<drop_count> out;
  const auto take = [&](drop_count::kind kind, const std::atomic<std::uint64_t>& count,
                        std::uint64_t& reported) {
    const auto total = count.load();
    if (const auto fresh = total - std::exchange(reported, total)) out.push_back({kind, 0, fresh});
  };
  take(drop_count::kind::principal, state_->drops, state_->drops_reported);
  take(drop_count::kind::dynamic, state_->dynamic_drops, state_->dynamic_drops_reported);
  take(drop_count::kind::speculation_unavailable, state_->failed_speculations,
       state_->failed_speculations_reported);
  take(drop_count::kind::speculative, state_->speculative_drops, state_->speculative_drops_reported);
  std::uint64_t aggregation_drops = 0;
  for (const auto& a : state_->aggregations) aggregation_drops += a->drops();
  if (const auto fresh = aggregation_drops - std::exchange(state_->aggregation_drops_reported, aggregation_drops))
    out.push_back({drop_count::kind::aggregation, 0, fresh});
  return out;
}

agg::dynamic_aggregation& engine::aggregation(std::uint32_t varid) { return *state_->aggregations.at(varid - 1); }

dtpp::engine::factory engine_factory() {
  return {
      .name = "inproc",
      .claims = detail::names_probe_site,
      .make = [](const ir::program& program, const dtpp::engine::run_options& run)
          -> std::unique_ptr<dtpp::engine::source> {
        return std::make_unique<engine>(program,
                                        engine_options{.program_name = run.program_name, .bufsize = run.bufsize,
                                                       .aggsize = run.aggsize, .dynvarsize = run.dynvarsize,
                                                       .nspec = run.nspec, .specsize = run.specsize, .cpu = run.cpu, .zdefs = run.zdefs});
      },
      .probes = [](const ir::program* program, const dtpp::engine::run_options& run) {
        const engine_options options{.program_name = run.program_name};
        return program ? engine(*program, options).probes() : available_probes(options);
      },
  };
}

}  // namespace dtpp::inproc
