// The kernel driver: maps, programs, attachment, the ring buffer and per-CPU aggregation
// snapshots. Every kernel object is held by an fd that closes on every path out.
#include "dtpp/kernel/driver.hpp"
#include "dtpp/kernel/types.hpp"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fnmatch.h>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "btf_ids.hpp"
#include "codegen.hpp"
#include "detach.hpp"
#include "fd.hpp"
#include "loader_events.hpp"
#include "dtpp/engine/probe_ids.hpp"
#include "dtpp/inproc/engine.hpp"
#include "dtpp/agg/walk.hpp"
#include "dtpp/print/frames.hpp"
#include "providers.hpp"
#include "vtime.hpp"

namespace dtpp::kernel {
namespace {

// Moves the calling thread to CPU 0 while it lives (and back), when the thread may run there.
// This thread on one CPU while it lives, when the scheduler lets it move there.
class on_cpu {
 public:
  explicit on_cpu(int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    moved_ = ::sched_getaffinity(0, sizeof before_, &before_) == 0 &&
             ::sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~on_cpu() {
    if (moved_) ::sched_setaffinity(0, sizeof before_, &before_);
  }
  on_cpu(const on_cpu&) = delete;
  on_cpu& operator=(const on_cpu&) = delete;
  bool moved() const { return moved_; }

 private:
  cpu_set_t before_{};
  bool moved_ = false;
};

std::string errno_text(int e) { return std::strerror(e < 0 ? -e : e); }

std::int64_t clock_ns(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Maps and programs are made with the bpf() system call itself: libbpf's wrappers first probe
// the kernel (for memory-cgroup accounting and for object names) by loading two programs of their
// own, a tenth of the CPU time of a `BEGIN { exit(0); }` run. This kernel has both (Linux 5.11+).
int bpf_call(bpf_cmd command, bpf_attr& attr) {
  int f;
  do f = static_cast<int>(::syscall(__NR_bpf, command, &attr, sizeof attr));
  while (f < 0 && errno == EAGAIN && command == BPF_PROG_LOAD);  // as libbpf: the verifier was interrupted
  return f < 0 ? -errno : f;
}

// A new map's fd, or -errno.
int create_map(bpf_map_type type, const char* name, std::uint32_t key, std::uint32_t value, std::uint32_t entries,
               std::uint32_t flags) {
  bpf_attr attr{};
  attr.map_type = type;
  attr.key_size = key;
  attr.value_size = value;
  attr.max_entries = entries;
  attr.map_flags = flags;
  std::strncpy(attr.map_name, name, sizeof attr.map_name - 1);
  return bpf_call(BPF_MAP_CREATE, attr);
}

// A loaded program's fd, or -errno; the verifier's log in `log` when it is not empty, at
// `log_level` (1: what it refused and why, 2: every instruction's state, 4: statistics). A
// tracing program attaches to the raw tracepoint vmlinux BTF's type `attach_btf_id` names (tp_btf).
int load_program(bpf_prog_type type, const std::vector<bpf_insn>& code, std::string& log, std::uint32_t log_level = 1 | 4,
                 std::uint32_t attach_btf_id = 0) {
  bpf_attr attr{};
  attr.prog_type = type;
  if (type == BPF_PROG_TYPE_TRACING) {
    attr.expected_attach_type = BPF_TRACE_RAW_TP;
    attr.attach_btf_id = attach_btf_id;
  }
  attr.insns = reinterpret_cast<std::uintptr_t>(code.data());
  attr.insn_cnt = static_cast<std::uint32_t>(code.size());
  attr.license = reinterpret_cast<std::uintptr_t>("GPL");
  std::strncpy(attr.prog_name, "dtpp", sizeof attr.prog_name - 1);
  if (!log.empty()) {
    attr.log_level = log_level;
    attr.log_buf = reinterpret_cast<std::uintptr_t>(log.data());
    attr.log_size = static_cast<std::uint32_t>(log.size());
  }
  return bpf_call(BPF_PROG_LOAD, attr);
}

fd make_map(bpf_map_type type, const char* name, std::uint32_t key, std::uint32_t value, std::uint32_t entries,
            std::uint32_t flags = 0) {
  const int f = create_map(type, name, key, value, entries, flags);
  if (f < 0) {
    if (f == -EPERM) throw error("creating BPF map " + std::string(name) + ": " + errno_text(f) + " (tracing the kernel needs root, or CAP_BPF and CAP_PERFMON)");
    throw error("creating BPF map " + std::string(name) + " (" + std::to_string(value) + "-byte values, " +
                std::to_string(entries) + " entries): " + errno_text(f));
  }
  return fd(f);
}

// Thread-locals (and vtimestamp's entries) live in task storage, which the kernel frees with the
// thread. Such maps need BTF for their key (an int) and value (here, bytes).
fd make_task_storage(const char* name, std::uint32_t bytes) {
  btf* types = btf__new_empty();
  if (!types) throw error(std::string("creating BTF for task storage ") + name + ": " + errno_text(errno));
  const int int_type = btf__add_int(types, "int", 4, BTF_INT_SIGNED);
  const int byte_type = btf__add_int(types, "unsigned char", 1, 0);
  const int value_type = btf__add_array(types, int_type, byte_type, bytes);
  const int loaded = int_type > 0 && byte_type > 0 && value_type > 0 ? btf__load_into_kernel(types) : -EINVAL;
  if (loaded != 0) {
    btf__free(types);
    throw error(std::string("loading BTF for task storage ") + name + ": " + errno_text(loaded));
  }
  LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = static_cast<__u32>(btf__fd(types)),
              .btf_key_type_id = static_cast<__u32>(int_type), .btf_value_type_id = static_cast<__u32>(value_type),
              .map_flags = BPF_F_NO_PREALLOC);
  const int f = bpf_map_create(BPF_MAP_TYPE_TASK_STORAGE, name, 4, bytes, 0, &opts);
  const int e = errno;
  btf__free(types);  // the map keeps its own reference to the loaded BTF
  if (f < 0) throw error(std::string("creating task storage ") + name + ": " + errno_text(e));
  return fd(f);
}

int perf_event_open(perf_event_attr& attr, int cpu, pid_t pid = -1) {
  return static_cast<int>(::syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

// A member's byte offset in a kernel struct, from the kernel's types; -1 when unknown.
std::int64_t member_offset(const char* record, const char* member) {
  auto& types = kernel_types();
  const auto t = types.find(record);
  const auto m = t ? types.member(t->id, member) : std::nullopt;
  return m ? m->bit_offset / 8 : -1;
}

std::uint32_t round8(std::uint32_t n) { return (n + 7) & ~7u; }

bool uses_task_fields(const ir::program& program) {
  bool uses = false;
  for (const auto& c : program.clauses)
    ir::for_each_expression(c, [&](const ir::expr& e) {
      uses |= (e.kind == ir::expr::kind_t::builtin &&
               (e.index == static_cast<std::uint32_t>(ir::builtin::ppid) ||
                e.index == static_cast<std::uint32_t>(ir::builtin::vtimestamp))) ||
              (e.kind == ir::expr::kind_t::call && e.function == ir::subroutine::progenyof);
    });
  return uses;
}

// Whether a probe description is of pid or USDT probes, whose processes (or, for PROVIDER*,
// processes started later) may bring objects with more of them.
bool follows_processes(const ir::probe& p) { return process_of(p).has_value() || follows_new_processes(p); }

bool follows_processes(const ir::program& program) {
  return std::any_of(program.clauses.begin(), program.clauses.end(), [](const ir::clause& c) {
    return std::any_of(c.probes.begin(), c.probes.end(), [](const ir::probe& p) { return follows_processes(p); });
  });
}

}  // namespace

// ---- an aggregation in a per-CPU map ----------------------------------------------------------

/// An aggregation's front cache (codegen.hpp's layout::cache_map) mapped into this process:
/// snapshots read its entries and trunc() empties them in place, each CPU's entry apart.
class front_cache {
 public:
  front_cache(int map, std::uint32_t cpus, std::uint32_t slots, std::uint32_t key_size, std::uint32_t entry_size)
      : slots_(std::size_t{cpus} * slots), key_size_(key_size), entry_size_(entry_size) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    bytes_ = (slots_ * entry_size_ + page - 1) / page * page;
    base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, map, 0);
    if (base_ == MAP_FAILED) throw error("mapping an aggregation's front cache: " + errno_text(errno));
  }
  ~front_cache() { ::munmap(base_, bytes_); }
  front_cache(const front_cache&) = delete;
  front_cache& operator=(const front_cache&) = delete;

  std::uint32_t slots_per_cpu(std::uint32_t cpus) const { return static_cast<std::uint32_t>(slots_ / cpus); }

  // visit(key bytes, entry's [generation, words], entry index) for each entry holding a key
  // (generation 0: empty). The program writes the key before the generation.
  template <class Visit>
  void for_each(Visit visit) const {
    for (std::size_t i = 0; i < slots_; ++i) {
      auto* entry = static_cast<std::uint8_t*>(base_) + i * entry_size_;
      auto* part = reinterpret_cast<std::uint64_t*>(entry + key_size_);
      if (__atomic_load_n(part, __ATOMIC_ACQUIRE) != 0) visit(entry, part, i);
    }
  }

  // Empties entry i: the program's next update of any key there starts it afresh.
  void empty(std::size_t i) {
    auto* part = reinterpret_cast<std::uint64_t*>(static_cast<std::uint8_t*>(base_) + i * entry_size_ + key_size_);
    __atomic_store_n(part, 0, __ATOMIC_RELEASE);
  }

 private:
  std::size_t slots_;
  std::uint32_t key_size_, entry_size_;
  std::size_t bytes_ = 0;
  void* base_ = nullptr;
};

class map_aggregation final : public agg::live_aggregation {
 public:
  map_aggregation(agg::descriptor desc, int map, std::uint32_t key_size, std::vector<std::uint32_t> widths,
                  std::uint64_t* generation, std::uint32_t cpus, std::uint32_t stride,
                  std::unique_ptr<front_cache> cache)
      : desc_(std::move(desc)), map_(map), key_size_(key_size), widths_(std::move(widths)),
        generation_(generation), cpus_(cpus), stride_(stride), cache_(std::move(cache)) {}

  const agg::descriptor& desc() const override { return desc_; }

  agg::dynamic_table snapshot() const override {
    agg::dynamic_table t(desc_, cpus_);
    t.set_normal(normal_);
    const auto gen = __atomic_load_n(generation_, __ATOMIC_ACQUIRE);
    // One row per key: a key may be in the front cache of some CPUs and in the map for others,
    // and keys of usym(), mod() ... that name the same function or module are one, as in DTrace.
    // Rows by the key's bytes; with symbols, each distinct key is made canonical once, and rows
    // are found by its canonical bytes.
    std::unordered_map<std::string, std::size_t> rows, canonical_rows;
    const auto row_of = [&](const std::uint8_t* key) {
      const auto [it, fresh] = rows.try_emplace(std::string(reinterpret_cast<const char*>(key), key_size_), 0);
      if (!fresh) return it->second;
      if (!has_symbols_) return it->second = t.add_row(decode(key));
      const auto canonical = canonical_bytes(key);
      const auto [same, first] = canonical_rows.try_emplace(canonical, 0);
      if (first) same->second = t.add_row(decode(reinterpret_cast<const std::uint8_t*>(canonical.data())));
      return it->second = same->second;
    };
    const auto merge = [&](std::size_t row, std::uint32_t cpu, const std::uint64_t* part) {
      if (part[0] != gen) return;  // never updated on this CPU, or cleared since
      desc_.fn.merge(t.words(row).data(), part + 1);
      desc_.fn.merge(t.shard_words(row, cpu).data(), part + 1);
    };
    for_each_entry([&](const std::uint8_t* key, const std::uint64_t* values) {
      // A key exists once some CPU wrote it (generation 0: never; trunc() writes 0 too).
      bool written = false;
      for (std::uint32_t cpu = 0; cpu < cpus_; ++cpu) written |= values[cpu * (stride_ / 8)] != 0;
      if (!written) return;
      const auto row = row_of(key);
      for (std::uint32_t cpu = 0; cpu < cpus_; ++cpu) merge(row, cpu, values + cpu * (stride_ / 8));
    });
    if (cache_) {
      const auto slots = cache_->slots_per_cpu(cpus_);
      cache_->for_each([&](const std::uint8_t* key, const std::uint64_t* part, std::size_t i) {
        // The live words, copied once each: the program may be adding to them.
        std::vector<std::uint64_t> copy(desc_.fn.words() + 1);
        for (std::size_t w = 0; w < copy.size(); ++w) copy[w] = __atomic_load_n(part + w, __ATOMIC_RELAXED);
        merge(row_of(key), static_cast<std::uint32_t>(i / slots), copy.data());
      });
    }
    return t;
  }

  // A new generation: every CPU's entry restarts from the initial value at its next update, and
  // snapshots read older entries as initial values. No entry is written twice at once.
  void clear() override { __atomic_fetch_add(generation_, 1, __ATOMIC_RELEASE); }

  void trunc() override { remove_unless([](const agg::dynamic_key&) { return false; }); }

  void trunc(std::int64_t n) override {
    const auto snap = snapshot();
    const agg::dynamic_table* tables[] = {&snap};
    const auto rows = agg::walk_rows<agg::dynamic_key>(tables, n >= 0 ? order::valrevsorted : order::valsorted);
    const auto keep = static_cast<std::size_t>(n >= 0 ? n : -n);
    std::vector<agg::dynamic_key> kept;
    for (std::size_t i = 0; i < rows.size() && i < keep; ++i) kept.push_back(snap.key(rows[i].row));
    remove_unless([&](const agg::dynamic_key& k) { return std::find(kept.begin(), kept.end(), k) != kept.end(); });
  }

  void normalize(std::uint64_t n) override {
    if (n == 0) throw std::invalid_argument("dtpp: normalize() divisor must not be zero");
    normal_ = n;
  }
  void denormalize() override { normal_ = 1; }

 private:
  // Calls visit(key bytes, every CPU's [generation, words]) for each entry, reading the map a
  // batch of entries per system call.
  template <class Visit>
  void for_each_entry(Visit visit) const {
    std::uint32_t batch = 256;
    std::vector<std::uint8_t> keys;
    std::vector<std::uint64_t> values;
    __u32 token = 0;
    bool started = false;
    for (;;) {
      keys.resize(static_cast<std::size_t>(batch) * key_size_);
      values.resize(static_cast<std::size_t>(batch) * cpus_ * (stride_ / 8));
      __u32 count = batch;
      const int result = bpf_map_lookup_batch(map_, started ? &token : nullptr, &token, keys.data(),
                                              values.data(), &count, nullptr);
      const int failure = result == 0 ? 0 : errno;
      if (failure == ENOSPC && count == 0) {  // one hash bucket holds more than a batch
        batch *= 2;
        continue;
      }
      if (failure != 0 && failure != ENOENT) throw error("reading an aggregation's map: " + errno_text(failure));
      for (__u32 i = 0; i < count; ++i)
        visit(keys.data() + static_cast<std::size_t>(i) * key_size_,
              values.data() + static_cast<std::size_t>(i) * cpus_ * (stride_ / 8));
      if (failure == ENOENT) return;
      started = true;
    }
  }

  // The key's bytes with each usym(), mod() ... record canonical (print::canonical_symbol):
  // keys naming one function or module are then the same bytes.
  std::string canonical_bytes(const std::uint8_t* bytes) const {
    std::string out(reinterpret_cast<const char*>(bytes), key_size_);
    std::size_t off = 0;
    for (std::size_t i = 0; i < desc_.keys.size(); off += widths_[i], ++i) {
      const auto& type = desc_.keys[i];
      if (type.form == agg::symbol_form::none) continue;
      auto record = out.substr(off, widths_[i]);
      print::canonical_symbol(type.form, type.kind == agg::key_type::category::ustack, record);
      out.replace(off, widths_[i], record);
    }
    return out;
  }

  // The key of canonical bytes (canonical_bytes(), or any bytes of a key without symbols).
  agg::dynamic_key decode(const std::uint8_t* bytes) const {
    agg::dynamic_key k;
    std::size_t off = 0;
    for (std::size_t i = 0; i < desc_.keys.size(); ++i) {
      const auto& type = desc_.keys[i];
      if (type.kind == agg::key_type::category::string) {
        const auto* text = reinterpret_cast<const char*>(bytes + off);
        k.records.push_back(agg::record::of_string(std::string(text, ::strnlen(text, widths_[i])), type.size));
      } else if (type.is_stack()) {
        k.records.push_back({type, 0, std::string(reinterpret_cast<const char*>(bytes + off), widths_[i])});
      } else {
        std::uint64_t bits = 0;
        std::memcpy(&bits, bytes + off, 8);
        k.records.push_back(agg::record::of_integer(type, bits));
      }
      off += widths_[i];
    }
    return k;
  }

  // The key of an entry's bytes, as snapshots give it.
  agg::dynamic_key key_of(const std::uint8_t* bytes) const {
    if (!has_symbols_) return decode(bytes);
    const auto canonical = canonical_bytes(bytes);
    return decode(reinterpret_cast<const std::uint8_t*>(canonical.data()));
  }

  template <class Keep>
  void remove_unless(Keep keep) {
    std::vector<std::vector<std::uint8_t>> doomed;
    for_each_entry([&](const std::uint8_t* key, const std::uint64_t*) {
      if (!keep(key_of(key))) doomed.emplace_back(key, key + key_size_);
    });
    // An array's one entry cannot go: it is written back as never written.
    const std::vector<std::uint64_t> unwritten(stride_ / 8 * cpus_, 0);
    for (const auto& k : doomed)
      if (desc_.keys.empty()) bpf_map_update_elem(map_, k.data(), unwritten.data(), BPF_ANY);
      else bpf_map_delete_elem(map_, k.data());
    if (cache_)
      cache_->for_each([&](const std::uint8_t* key, const std::uint64_t*, std::size_t i) {
        if (!keep(key_of(key))) cache_->empty(i);
      });
  }

  agg::descriptor desc_;
  int map_;
  std::uint32_t key_size_;
  std::vector<std::uint32_t> widths_;
  std::uint64_t* generation_;
  std::uint32_t cpus_;
  std::uint32_t stride_;  // bytes from one CPU's [generation, words] to the next's in a lookup
  std::unique_ptr<front_cache> cache_;  // null: none
  bool has_symbols_ = std::any_of(desc_.keys.begin(), desc_.keys.end(),
                                  [](const agg::key_type& k) { return k.form != agg::symbol_form::none; });
  std::uint64_t normal_ = 1;
};

// ---- the driver's state -------------------------------------------------------------------------

struct driver::state {
  ir::program program;
  driver_options options;
  std::vector<target> targets;  // one per probe
  std::vector<probe_info> infos;
  // What is loaded: one program per target, except that many system calls' probes with the same
  // clauses share one on raw_syscalls (see group_programs).
  struct unit {
    target program;
    std::vector<std::size_t> members;  // indexes into targets
  };
  std::vector<unit> units;
  layout plan;
  scratch_plan scratch_prefix;  // the record and clause-locals; each program's scratch starts so
  std::uint32_t cpus = 1;

  std::vector<fd> maps;       // by map index
  std::vector<fd> programs;   // by unit
  std::vector<bool> reads_task;  // by unit: whether the program asks the kernel about its task
  std::vector<fd> scratches;  // by unit
  std::vector<fd> events;     // perf events the programs are attached to
  std::vector<fd> links;      // BPF links attaching the programs to the events
  fd vtime_program, vtime_link;  // vtimestamp's sched_switch program (vtime.hpp), from load to the end
  std::size_t instructions = 0;
  void* globals = nullptr;
  std::size_t globals_bytes = 0;
  ring_buffer* ring = nullptr;
  std::vector<std::unique_ptr<map_aggregation>> aggregations;

  std::vector<firing> records;
  std::vector<fault> faults;
  std::vector<std::uint64_t> drops_reported;  // per slot and CPU
  bool ended = false;
  bool attached = false;  // go() attached the probes and detach() has not yet released them

  // The processes whose pid and USDT probes follow their loader (loader_events.hpp): each has a
  // slot in `loads`, which its loader program counts up.
  struct followed_process {
    std::int64_t pid;
    std::uint64_t loads_seen = 0;
  };
  std::vector<followed_process> followed;
  fd loads;                 // the counters (an array map)
  std::vector<fd> loaders;  // their programs
  std::map<std::string, std::size_t> by_name;  // each probe's target, by its full name
  event_subsystems tracefs_events;  // read once for the run
  probe_numbering numbering{tracefs_events};  // their ids

  // PROVIDER*:::NAME descriptions follow the processes that start, or map objects, during the run
  // (loader_events.hpp): a program notes their ids in `new_pids`.
  fd new_pids;
  std::vector<fd> process_noters;  // its programs: a uprobe's and a tracepoint's
  // The paths each description (by clause and place in it) has examined.
  std::map<std::pair<std::uint32_t, std::size_t>, std::set<std::string>> objects_checked;

  ~state() {
    if (ring) ring_buffer__free(ring);
    detach();  // before the programs and maps go
    if (globals) ::munmap(globals, globals_bytes);
  }

  // Detaches every probe: the links all at once, so that no program runs once this returns,
  // then the events, in the background when they are many (see detach.hpp).
  static constexpr std::size_t events_closed_here_at_most = 8;

  void detach() {
    attached = false;
    close_together(links);
    if (events.size() > events_closed_here_at_most) release_in_background(events);
    else events.clear();
  }

  std::uint64_t* global(std::uint32_t offset) const {
    return reinterpret_cast<std::uint64_t*>(static_cast<char*>(globals) + offset);
  }

  void bind_probes() {
    for (std::uint32_t ci = 0; ci < program.clauses.size(); ++ci) {
      for (std::size_t pi = 0; pi < program.clauses[ci].probes.size(); ++pi) {
        const auto& p = program.clauses[ci].probes[pi];
        auto matched = match_probes(p, tracefs_events);
        if (matched.empty() && !options.zdefs) {
          if (const auto why = unavailable_reason(p)) throw error(*why, p.where, "D_PDESC_ZERO");
          throw error("probe description " + p.text() + " does not match any probes", p.where, "D_PDESC_ZERO");
        }
        for (auto& t : matched) bind(ci, pi, std::move(t), 0);
      }
    }
    // In id order, as probes() gives them (the probes a run finds later come after: pid and USDT
    // probes are numbered after every listed one, in order).
    std::sort(targets.begin(), targets.end(), [](const target& a, const target& b) { return a.info.id < b.info.id; });
    by_name.clear();
    for (std::size_t i = 0; i < targets.size(); ++i) by_name.emplace(place_name(targets[i]), i);
    keep_entries_with_returns(0);
    for (const auto& t : targets) infos.push_back(t.info);
  }

  // An entry probe placed past a function's endbr64 goes back to its first byte when the function
  // has a return probe too: the uretprobe replaces the return address on the stack as the first
  // byte is reached, and ucaller reads the return address there at entry.
  void keep_entries_with_returns(std::size_t first) {
    for (auto i = first; i < targets.size(); ++i) {
      auto& entry = targets[i];
      if (entry.type != target::kind::user_entry || entry.entry_skip == 0) continue;
      const auto start = entry.uprobe_offset - entry.entry_skip;
      if (std::any_of(targets.begin() + static_cast<std::ptrdiff_t>(first), targets.end(), [&](const target& t) {
            return t.type == target::kind::user_return && t.uprobe_path == entry.uprobe_path &&
                   t.uprobe_pid == entry.uprobe_pid && t.uprobe_offset == start;
          })) {
        entry.uprobe_offset = start;
        entry.entry_skip = 0;
      }
    }
  }

  // A probe's name and, for a uprobe, its place: two objects' sites may share a name (two
  // programs' a.out`main, every process's providers named alike): each place is a probe of its own.
  static std::string place_name(const target& t) {
    return full_name(t.info) + (t.uprobe_path.empty() ? "" : " " + t.uprobe_path + "+" + std::to_string(t.uprobe_offset));
  }

  // Gives clause `ci` to the probe `t` names (by the clause's description `pi`, whose statement
  // it runs as there), making it a new target when it is none yet; one known already gets it
  // only when it is not placed yet (its index at or after `placed`: a loaded program's clauses
  // are fixed). Says whether `t` was new.
  bool bind(std::uint32_t ci, std::size_t pi, target t, std::size_t placed) {
    const auto name = place_name(t);
    auto it = by_name.find(name);
    const bool fresh = it == by_name.end();
    if (fresh) {
      t.info.id = numbering.id(t);
      targets.push_back(std::move(t));
      it = by_name.emplace(name, targets.size() - 1).first;
    }
    auto& info = targets[it->second].info;
    if (it->second >= placed && (info.clauses.empty() || info.clauses.back() != ci)) {
      info.clauses.push_back(ci);
      info.statements.push_back(ir::statement_id(program, ci, pi));
    }
    return fresh;
  }

  // Places a uprobe on the dynamic loader of each process with pid or USDT probes (none for a
  // static program), so that follow_loads() sees the objects it maps later.
  void follow_loaders() {
    std::vector<std::pair<std::int64_t, loader_breakpoint>> places;
    for (const auto& c : program.clauses)
      for (const auto& p : c.probes) {
        const auto pid = process_of(p);
        if (pid && std::none_of(places.begin(), places.end(), [&](const auto& place) { return place.first == *pid; }))
          if (auto at = find_loader_breakpoint(*pid)) places.emplace_back(*pid, std::move(*at));
      }
    if (places.empty()) return;
    loads = make_map(BPF_MAP_TYPE_ARRAY, "dtpp_loads", 4, 8, static_cast<std::uint32_t>(places.size()));
    for (const auto& [pid, at] : places) {
      const auto code = loader_program(loads.get(), static_cast<std::uint32_t>(followed.size()));
      fd loader(bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dtpp_loader", "GPL", code.data(), code.size(), nullptr));
      if (loader.get() < 0) throw error("loading the dynamic loader's program: " + errno_text(errno));
      target t;
      t.type = target::kind::user_entry;
      t.info = {0, "pid" + std::to_string(pid), at.path, "_dl_debug_state", "entry", {}, {}};
      t.uprobe_path = at.path;
      t.uprobe_offset = at.offset;
      t.uprobe_pid = pid;
      if (const auto why = attach(t, loader.get())) throw error("following the loader: " + *why);
      loaders.push_back(std::move(loader));
      followed.push_back({pid});
    }
  }

  // A loader event of a followed process: wait until it has stopped, match the probe
  // descriptions that name it again, load and attach the probes new objects brought, and let it
  // run on (SIGCONT when it is stopped by the signal; a -c command, stopped for dtpp as its
  // tracer, is let go by its tracer). Objects unmapped need nothing: a uprobe belongs to its
  // file, and fires again if the file is mapped again.
  void follow_loads() {
    if (!attached) return;
    for (std::uint32_t slot = 0; slot < followed.size(); ++slot) {
      auto& process = followed[slot];
      std::uint64_t count = 0;
      if (bpf_map_lookup_elem(loads.get(), &slot, &count) != 0 || count == process.loads_seen) continue;
      process.loads_seen = count;
      // Let go however this ends (a probe the kernel refuses to load throws).
      struct resume {
        std::int64_t pid;
        char stopped;
        ~resume() {
          if (stopped == 'T') ::kill(static_cast<pid_t>(pid), SIGCONT);
        }
      } const stopped{process.pid, wait_until_stopped(process.pid)};
      const auto first = targets.size();
      for (std::uint32_t ci = 0; ci < program.clauses.size(); ++ci)
        for (std::size_t pi = 0; pi < program.clauses[ci].probes.size(); ++pi)
          if (const auto& p = program.clauses[ci].probes[pi]; process_of(p) == process.pid)
            for (auto& t : match_probes(p, tracefs_events)) bind(ci, pi, std::move(t), first);
      place_targets_from(first);
    }
  }

  // Loads and attaches the targets from `first` on, which matching found during the run.
  void place_targets_from(std::size_t first) {
    keep_entries_with_returns(first);
    for (auto i = first; i < targets.size(); ++i) {
      infos.push_back(targets[i].info);
      units.push_back({targets[i], {i}});
      load_unit(units.back(), generate_unit(units.back()));
      if (attach(targets[i], programs.back().get()))
        faults.push_back(not_enabled(targets[i].info));
    }
  }

  // When a description names every process's USDT sites, notes each process that starts a
  // program (sched_process_exec) or reaches the dynamic loader's breakpoint (after mapping the
  // libraries it links, and at each dlopen), in any process using the system's loader. Done
  // before the probes are first matched, so that no process starting meanwhile goes unseen.
  void note_new_processes() {
    if (std::none_of(program.clauses.begin(), program.clauses.end(), [](const ir::clause& c) {
          return std::any_of(c.probes.begin(), c.probes.end(), follows_new_processes);
        }))
      return;
    new_pids = make_map(BPF_MAP_TYPE_HASH, "dtpp_new_pids", 4, 4, 4096);
    const auto code = process_noting_program(new_pids.get());
    for (const auto type : {BPF_PROG_TYPE_TRACEPOINT, BPF_PROG_TYPE_KPROBE}) {
      process_noters.emplace_back(bpf_prog_load(type, "dtpp_noter", "GPL", code.data(), code.size(), nullptr));
      if (process_noters.back().get() < 0) throw error("loading the process noting program: " + errno_text(errno));
    }
    // The tracepoint itself: proc:::exec-success is a raw tracepoint program's, for its translator.
    auto exec = match_probes({"tracepoint", "sched", "", "sched_process_exec", {}}, tracefs_events);
    if (exec.size() != 1) throw error("tracefs has no sched_process_exec event");
    if (const auto why = attach(exec.front(), process_noters[0].get())) throw error("noting new processes: " + *why);
    // The loader x86-64's ABI names, which dynamic programs ask for (the command itself may be
    // linked statically and map none).
    std::error_code ec;
    const auto loader = std::filesystem::canonical("/lib64/ld-linux-x86-64.so.2", ec);
    if (const auto at = ec ? std::nullopt : loader_breakpoint_in(loader.string())) {
      target t;
      t.type = target::kind::user_entry;
      t.info = {0, "pid", at->path, "_dl_debug_state", "entry", {}, {}};
      t.uprobe_path = at->path;
      t.uprobe_offset = at->offset;
      t.uprobe_pid = -1;
      if (const auto why = attach(t, process_noters[1].get())) throw error("noting new processes: " + *why);
    }
  }

  // Matches the every-process descriptions against the objects of each process noted since the
  // last call that they have not examined yet, and places what they find. The ids are taken out
  // of the map before the processes' mappings are read, so that a process noted again meanwhile
  // is read again.
  void follow_new_processes() {
    if (!attached || new_pids.get() < 0) return;
    std::vector<std::uint32_t> pids;
    for (std::uint32_t next = 0; bpf_map_get_next_key(new_pids.get(), pids.empty() ? nullptr : &pids.back(), &next) == 0;)
      pids.push_back(next);
    for (const auto pid : pids) bpf_map_delete_elem(new_pids.get(), &pid);
    const auto first = targets.size();
    for (const auto pid : pids)
      for (std::uint32_t ci = 0; ci < program.clauses.size(); ++ci)
        for (std::size_t pi = 0; pi < program.clauses[ci].probes.size(); ++pi)
          for (auto& t : match_new_objects(program.clauses[ci].probes[pi], pid, objects_checked[{ci, pi}]))
            bind(ci, pi, std::move(t), first);
    place_targets_from(first);
  }

  // Probes of many system calls with the same clauses share one program on raw_syscalls, which
  // attaches once instead of once per call, and leaves one perf event to release instead of hundreds.
  static constexpr std::size_t raw_syscalls_from = 8;

  void group_programs() {
    std::vector<bool> grouped(targets.size(), false);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const auto& t = targets[i];
      const bool syscall = t.type == target::kind::syscall_entry || t.type == target::kind::syscall_return;
      if (grouped[i] || !syscall) continue;
      std::vector<std::size_t> same;
      for (std::size_t j = i; j < targets.size(); ++j)
        if (!grouped[j] && targets[j].type == t.type && targets[j].info.clauses == t.info.clauses &&
            targets[j].info.statements == t.info.statements &&
            syscall_number(targets[j].info.function))
          same.push_back(j);
      if (same.size() < raw_syscalls_from) continue;
      unit u{raw_syscalls(t.type), same};
      u.program.info = t.info;
      for (const auto j : same) grouped[j] = true;
      units.push_back(std::move(u));
    }
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (!grouped[i] && targets[i].type != target::kind::error) units.push_back({targets[i], {i}});
  }

  // Each raw_syscalls program finds its probe by system call number in a table of its own.
  void create_probe_tables() {
    for (auto& u : units) {
      if (u.members.size() < 2) continue;
      std::uint32_t entries = 1;
      for (const auto m : u.members) entries = std::max(entries, *syscall_number(targets[m].info.function) + 1);
      const auto value = probe_entry_name + plan.strsize;
      maps.push_back(make_map(BPF_MAP_TYPE_ARRAY, "dtpp_probes", 4, value, entries));
      u.program.probe_table = static_cast<std::uint32_t>(maps.size() - 1);
      std::vector<std::uint8_t> entry(value);
      for (const auto m : u.members) {
        const auto& t = targets[m];
        std::fill(entry.begin(), entry.end(), 0);
        std::memcpy(entry.data(), &t.info.id, 4);
        std::memcpy(entry.data() + probe_entry_name, t.info.function.data(),
                    std::min<std::size_t>(t.info.function.size(), plan.string_chars));
        const auto number = *syscall_number(t.info.function);
        if (bpf_map_update_elem(maps.back().get(), &number, entry.data(), BPF_ANY) != 0)
          throw error("filling the probe table: " + errno_text(errno));
      }
    }
  }

  // Whether the kernel's element cache always has an element ready for a new key of aggregation
  // i. It starts with one a CPU and refills in an interrupt after each allocation, so no program
  // run may add two keys (one aggregating statement on i in each program's clauses, none in
  // ERROR's, which run once per fault), and only one program that may run with interrupts off
  // (profile, tick, a tracepoint) may add any: two of those in one such stretch would need two.
  // Tested with 16 keys from one tick-1ms firing: 15 were lost.
  bool element_always_ready(std::size_t i) const {
    const auto varid = static_cast<std::uint32_t>(i + 1);
    const auto statements_on = [&](const target& t) {
      std::ptrdiff_t n = 0;
      for (const auto c : t.info.clauses)
        n += std::count_if(program.clauses[c].statements.begin(), program.clauses[c].statements.end(),
                           [&](const ir::statement& s) { return s.kind == ir::action::aggregate && s.aggregation == varid; });
      return n;
    };
    const auto interrupts_on = [](target::kind k) {
      return k == target::kind::begin || k == target::kind::end || k == target::kind::syscall_entry ||
             k == target::kind::syscall_return || k == target::kind::user_entry || k == target::kind::user_return ||
             k == target::kind::usdt;
    };
    for (const auto& t : targets)
      if (t.type == target::kind::error && statements_on(t) > 0) return false;
    std::ptrdiff_t off = 0;
    for (const auto& u : units) {
      const auto n = statements_on(u.program);
      if (n > 1) return false;
      if (!interrupts_on(u.program.type)) off += n;
    }
    return off <= 1;
  }

  // A keyed aggregation's hash is allocated as keys come (BPF_F_NO_PREALLOC) when an element is
  // always ready (above): preallocating aggsize's entries was most of the time attaching took
  // (33 ms of 39 for three system-call probes on this project's host). Otherwise it is
  // preallocated, as a program adding several keys in one run found the element cache empty.
  void create_maps() {
    maps.resize(map_fixed);
    for (std::size_t i = 0; i < program.aggregations.size(); ++i) {
      const auto& d = program.aggregations[i];
      const auto value = static_cast<std::uint32_t>(8 * (d.fn.words() + 1));
      // Without keys, a one-entry per-CPU array, whose lookup the verifier inlines. With keys,
      // a plain hash whose value holds a slot per CPU: a per-CPU hash allocates each entry's
      // per-CPU value alone when preallocated, which took 143 ms for DTrace's default aggsize.
      // Entries: aggsize per CPU, as DTrace sizes its per-CPU aggregation buffers.
      const auto slot = plan.slot_size[i];
      const std::size_t cached = plan.cache_map[i] ? cache_bytes(i) / cpus : 0;
      const auto entries = std::max<std::size_t>((options.aggsize - cached) / (plan.key_size[i] + slot), 1);
      if (d.keys.empty()) maps.push_back(make_map(BPF_MAP_TYPE_PERCPU_ARRAY, "dtpp_agg", 4, value, 1));
      else
        maps.push_back(make_map(BPF_MAP_TYPE_HASH, "dtpp_agg", plan.key_size[i], slot * cpus,
                                static_cast<std::uint32_t>(entries), element_always_ready(i) ? BPF_F_NO_PREALLOC : 0));
    }
    for (std::size_t id = 0; id < program.variables.size(); ++id) {
      if (plan.variable_map[id] == 0) continue;
      const auto key = plan.variable_key_size[id], value = plan.variable_value_size[id];
      const auto entries = std::max<std::size_t>(options.dynvarsize / (key + value), 1);
      maps.push_back(make_map(BPF_MAP_TYPE_HASH, "dtpp_dynvar", key, value, static_cast<std::uint32_t>(entries)));
    }
    if (plan.thread_storage_size) maps.push_back(make_task_storage("dtpp_self", plan.thread_storage_size));
    if (plan.vtime_map) maps.push_back(make_task_storage("dtpp_vtime", vtime_entry_size));
    if (plan.zero_size) maps.push_back(make_map(BPF_MAP_TYPE_ARRAY, "dtpp_zero", 4, plan.zero_size, 1));
    for (std::size_t i = 0; i < program.aggregations.size(); ++i)
      if (plan.cache_map[i])
        maps.push_back(make_map(BPF_MAP_TYPE_ARRAY, "dtpp_agg_cache", 4, cache_bytes(i), 1, BPF_F_MMAPABLE));
    maps[map_drops] = make_map(BPF_MAP_TYPE_PERCPU_ARRAY, "dtpp_drops", 4, 8, drop_slots);
    const auto globals_size = round8(std::max<std::uint32_t>(plan.globals_size, 8));
    maps[map_globals] = make_map(BPF_MAP_TYPE_ARRAY, "dtpp_globals", 4, globals_size, 1, BPF_F_MMAPABLE);
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    globals_bytes = (globals_size + page - 1) / page * page;
    globals = ::mmap(nullptr, globals_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, maps[map_globals].get(), 0);
    if (globals == MAP_FAILED) {
      globals = nullptr;
      throw error("mapping the globals map: " + errno_text(errno));
    }
    for (std::size_t i = 0; i < program.aggregations.size(); ++i) *global(global_generations + 8 * static_cast<std::uint32_t>(i)) = 1;
  }

  std::uint32_t cache_entry(std::size_t i) const {
    return cache_entry_size(plan.key_size[i], program.aggregations[i].fn.words());
  }
  std::uint32_t cache_bytes(std::size_t i) const { return cpus * plan.cache_slots[i] * cache_entry(i); }

  // Each program has a per-CPU scratch map of its own, as large as its code asked for: programs
  // that interrupt one another on a CPU (a profile tick during a system call) share nothing.
  fd make_scratch(const scratch_plan& scratch) const {
    const auto size = round8(static_cast<std::uint32_t>(scratch.image.size()));
    if (size > 32768)
      throw error("the program needs " + std::to_string(size) + " bytes of per-CPU scratch memory, more than the kernel's 32 KB (lower strsize, or record fewer bytes)");
    auto map = make_map(BPF_MAP_TYPE_PERCPU_ARRAY, "dtpp_scratch", 4, size, 1);
    std::vector<std::uint8_t> all(static_cast<std::size_t>(size) * cpus);
    for (std::uint32_t c = 0; c < cpus; ++c) std::memcpy(all.data() + c * size, scratch.image.data(), scratch.image.size());
    const std::uint32_t zero = 0;
    if (bpf_map_update_elem(map.get(), &zero, all.data(), BPF_ANY) != 0)
      throw error("initializing the scratch map: " + errno_text(errno));
    return map;
  }

  // A unit's program as generated, and the scratch it asked for.
  struct generated_unit {
    generated_program program;
    scratch_plan scratch;
  };

  generated_unit generate_unit(const unit& u) const {
    generated_unit g{{}, scratch_prefix};
    g.program = generate(program, u.program, plan, g.scratch);
    return g;
  }

  // The ring buffer holds bufsize bytes (DTrace's principal buffer, 4 MiB by default) as a power
  // of two pages, unless the program cannot write that much: BEGIN and END run once, and write
  // at most what their generator counted, so a program whose other probes write nothing (no
  // record, no fault) needs only that. The 4 MiB ring's pages were most of the CPU time
  // `BEGIN { exit(0); }` took. Probes of objects a followed process loads later are not known
  // yet: such a program gets bufsize.
  void create_ring(const std::vector<generated_unit>& generated) {
    constexpr std::size_t largest_ring = std::size_t{1} << 31;  // its size is a 32-bit count
    if (options.bufsize > largest_ring)
      throw error("bufsize of " + std::to_string(options.bufsize) + " bytes exceeds the largest buffer the kernel offers (" +
                  std::to_string(largest_ring) + " bytes)");
    std::uint64_t once = 0;
    bool bounded = !follows_processes(program);
    for (std::size_t i = 0; i < units.size(); ++i) {
      const auto kind = units[i].program.type;
      if (kind == target::kind::begin || kind == target::kind::end) once += generated[i].program.ring_bytes;
      else bounded = bounded && generated[i].program.ring_bytes == 0;
    }
    // A ring holds one byte less than its size: the kernel keeps the producer within size - 1
    // of the consumer.
    const auto wanted = bounded ? std::min<std::uint64_t>(once + 1, options.bufsize) : options.bufsize;
    std::size_t ring_bytes = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    while (ring_bytes < wanted) ring_bytes *= 2;
    maps[map_ring] = make_map(BPF_MAP_TYPE_RINGBUF, "dtpp_ring", 0, 0, static_cast<std::uint32_t>(ring_bytes));
  }

  void load_programs() {
    std::vector<generated_unit> generated;
    for (const auto& u : units) generated.push_back(generate_unit(u));
    create_ring(generated);
    for (std::size_t i = 0; i < units.size(); ++i) load_unit(units[i], std::move(generated[i]));
  }

  void load_unit(const unit& u, generated_unit g) {
    std::vector<int> fds;
    for (const auto& m : maps) fds.push_back(m.get());
    scratches.push_back(make_scratch(g.scratch));
    fds[map_scratch] = scratches.back().get();
    resolve_maps(g.program.code, fds);
    programs.push_back(load(u, g.program.code));
    reads_task.push_back(g.program.reads_task);
    instructions += g.program.code.size();
  }

  // Loads and attaches vtimestamp's sched_switch program when the program reads vtimestamp. It
  // stays attached from before BEGIN until the driver goes, after END, so that every clause
  // sees its thread's time.
  void keep_vtime() {
    if (!plan.vtime_map) return;
    const auto target = kernel_type_id(vtime_tracepoint_type, BTF_KIND_TYPEDEF);
    if (target < 0) throw error(std::string("vtimestamp: the kernel's BTF has no ") + vtime_tracepoint_type);
    const auto code = vtime_switch_program(maps[plan.vtime_map].get(), static_cast<std::int32_t>(plan.task_exec_runtime));
    std::string log(options.verifier_log_size, '\0');
    vtime_program = fd(load_program(BPF_PROG_TYPE_TRACING, code, log, 1, static_cast<std::uint32_t>(target)));
    if (vtime_program.get() < 0) {
      log.resize(::strnlen(log.data(), log.size()));
      throw error("the kernel refused vtimestamp's sched_switch program: " + errno_text(vtime_program.get()) +
                  (log.empty() ? "" : "\nverifier log:\n" + log));
    }
    vtime_link = fd(bpf_raw_tracepoint_open(nullptr, vtime_program.get()));
    if (vtime_link.get() < 0) throw error("attaching vtimestamp's sched_switch program: " + errno_text(errno));
  }

  static bpf_prog_type type_of(const target& t) {
    switch (t.type) {
      case target::kind::begin:
      case target::kind::end: return BPF_PROG_TYPE_RAW_TRACEPOINT;
      case target::kind::profile:
      case target::kind::tick: return BPF_PROG_TYPE_PERF_EVENT;
      case target::kind::user_entry:
      case target::kind::user_return:
      case target::kind::usdt: return BPF_PROG_TYPE_KPROBE;
      default: return t.raw_tracepoint.empty() ? BPF_PROG_TYPE_TRACEPOINT : BPF_PROG_TYPE_RAW_TRACEPOINT;
    }
  }

  // Loads a program; when the verifier refuses, loads it again for the log and reports it. Under
  // bpflog the first load asks for the whole log (every instruction, as dtrace-utils asks), which
  // goes to options.verifier_log.
  fd load(const unit& u, const std::vector<bpf_insn>& code) {
    const auto& t = u.program;
    std::string log;
    if (options.verifier_log) log.assign(options.verifier_log_size, '\0');
    int f = load_program(type_of(t), code, log, 1 | 2 | 4);
    if (f < 0 && log.empty()) {
      log.assign(options.verifier_log_size, '\0');
      f = load_program(type_of(t), code, log);
    }
    log.resize(::strnlen(log.data(), log.size()));
    if (f >= 0) {
      if (options.verifier_log) options.verifier_log(log);
      return fd(f);
    }
    if (f == -ENOSPC) {  // the kernel refuses a load whose log did not fit, as dtrace-utils says
      // Where the verifier refuses the program itself, its verdict without the walk (log level 4:
      // the refusal and the statistics) says why; where only the log was too small, nothing does.
      std::string verdict(64 * 1024, '\0');
      const int again = load_program(type_of(t), code, verdict, 4);
      verdict.resize(again >= 0 || again == -ENOSPC ? 0 : ::strnlen(verdict.data(), verdict.size()));
      while (!verdict.empty() && verdict.back() == '\n') verdict.pop_back();
      if (again >= 0) ::close(again);
      log = "BPF verifier log is incomplete and is not reported.\nSet DTrace option 'bpflogsize' to some greater "
            "size for more output.\n(Current size is " + std::to_string(options.verifier_log_size) + ".)" +
            (verdict.empty() ? "" : "\nThe verifier's verdict:\n" + verdict);
      if (!verdict.empty()) f = again;  // the refusal's own errno
    }
    // copyout()'s helper is one a kernel may withhold (lockdown's integrity mode withholds it).
    if (log.find("cannot use helper bpf_probe_write_user") != std::string::npos)
      throw error("copyout() and copyoutstr() need bpf_probe_write_user, which this kernel does not give "
                  "probe programs (a kernel locked down withholds it: see kernel_lockdown(7))");
    // The verifier's verdict is at the end of its log.
    constexpr std::size_t tail = 4000;
    if (log.size() > tail) log = "...\n" + log.substr(log.size() - tail);
    const auto& p = t.info;
    const auto others = u.members.size() - 1;
    throw error("the kernel refused the program for probe " + p.provider + ":" + p.module + ":" + p.function + ":" + p.name +
                (others ? " (and " + std::to_string(others) + " more)" : "") + ", clauses " + clause_list(t) + ": " +
                errno_text(f) + (log.empty() ? "" : "\nverifier log:\n" + log));
  }

  std::string clause_list(const target& t) const {
    std::string s;
    for (const auto c : t.info.clauses) s += (s.empty() ? "" : ", ") + std::to_string(program.clauses[c].id);
    return s;
  }

  // BEGIN and END run on CPU 0, as the in-process engine fires them, so that both engines print
  // the same lines, or on -x cpu's, the one CPU traced (as DTrace runs them). A program that asks
  // about its task (curthread, pid, execname, self->, raise()) runs in this thread, as DTrace's
  // run in dtrace(1)'s, which moves to that CPU for it: a wait for its scheduler, up to a time
  // slice when other work runs there. Any other program runs where the kernel picks the CPU
  // itself (BPF_F_TEST_RUN_ON_CPU): from an interrupt on that CPU, which cannot tell the
  // difference, and costs no migration. BEGIN runs before any probe is
  // attached and END after all are detached, so no other program of ours shares the interrupt's
  // stretch (which element_always_ready counts on).
  void run_in_kernel(target::kind kind) {
    bool any = false, in_thread = false;
    for (std::size_t i = 0; i < units.size(); ++i)
      if (units[i].program.type == kind) {
        any = true;
        in_thread = in_thread || reads_task[i];
      }
    if (!any) return;
    const auto cpu = options.cpu.value_or(0);
    std::optional<on_cpu> pinned;
    if (in_thread) pinned.emplace(static_cast<int>(cpu));
    for (std::size_t i = 0; i < units.size(); ++i) {
      if (units[i].program.type != kind) continue;
      std::uint64_t args[6] = {};
      LIBBPF_OPTS(bpf_test_run_opts, run, .ctx_in = args, .ctx_size_in = sizeof args);
      if (!pinned || !pinned->moved()) {  // no task to keep, or CPU 0 is not this thread's to use
        run.flags = BPF_F_TEST_RUN_ON_CPU;
        run.cpu = cpu;
      }
      if (bpf_prog_test_run_opts(programs[i].get(), &run) != 0)
        throw error("running " + units[i].program.info.name + " in the kernel: " + errno_text(errno));
    }
  }

  // A probe the kernel would not attach, reported as libdtrace reports one it cannot enable.
  static fault not_enabled(const probe_info& info) {
    fault f;
    f.probe = info.id;
    f.what = "Failed to enable " + full_name(info);
    return f;
  }

  // Attaches every probe. One the kernel will not attach is reported as dtrace(1) reports a probe
  // it cannot enable (libdtrace's "Failed to enable" error, one a probe) and skipped, unless no
  // probe is left to attach, which is an error.
  void attach() {
    std::size_t wanted = 0, failed = 0;
    std::string first_failure;
    std::vector<fault> skipped;
    for (std::size_t i = 0; i < units.size(); ++i) {
      const auto& t = units[i].program;
      if (t.type == target::kind::begin || t.type == target::kind::end) continue;
      ++wanted;
      const auto why = attach(t, programs[i].get());
      if (!why) continue;
      if (failed++ == 0) first_failure = *why;
      for (const auto m : units[i].members) skipped.push_back(not_enabled(targets[m].info));
    }
    if (wanted > 0 && failed == wanted)
      throw error("no probe could be enabled: " + first_failure +
                  (failed > 1 ? " (and " + std::to_string(failed - 1) + " more)" : ""));
    faults.insert(faults.end(), skipped.begin(), skipped.end());
    attached = true;
    follow_loaders();
  }

  static std::string full_name(const probe_info& p) {
    return p.provider + ":" + p.module + ":" + p.function + ":" + p.name;
  }

  // Attaches one program: a perf event (a tracepoint's, or a CPU clock's on each CPU) and a BPF
  // link to it, which detach() can close apart from the event. Says why when the kernel refuses,
  // having kept nothing.
  std::optional<std::string> attach(const target& t, int program_fd) {
    if (!t.raw_tracepoint.empty()) {  // no perf event: the link is the attachment
      fd link(bpf_raw_tracepoint_open(t.raw_tracepoint.c_str(), program_fd));
      if (link.get() < 0) return full_name(t.info) + ": attaching to raw tracepoint " + t.raw_tracepoint + ": " + errno_text(errno);
      links.push_back(std::move(link));
      return std::nullopt;
    }
    perf_event_attr attr{};
    attr.size = sizeof attr;
    std::vector<int> on_cpus;
    pid_t pid = -1;
    if (t.type == target::kind::user_entry || t.type == target::kind::user_return || t.type == target::kind::usdt) {
      // A uprobe of the perf PMU: it leaves nothing in tracefs, and goes with its event's fd.
      const auto pmu = uprobe_pmu();
      if (!pmu) return full_name(t.info) + ": this kernel has no uprobe PMU";
      attr.type = pmu->type;
      attr.config = t.type == target::kind::user_return ? pmu->retprobe : 0;
      // A USDT semaphore is counted up by the kernel while the probe is attached.
      if (t.semaphore_offset) attr.config |= t.semaphore_offset << pmu->ref_ctr_shift;
      attr.config1 = reinterpret_cast<std::uintptr_t>(t.uprobe_path.c_str());
      attr.config2 = t.uprobe_offset;
      attr.sample_period = 1;
      attr.wakeup_events = 1;
      // Every CPU for the one process; or, with no process (pid -1), one event on CPU 0, whose
      // program runs wherever any process mapping the file reaches the probe (as a tracepoint's).
      pid = static_cast<pid_t>(t.uprobe_pid);
      on_cpus = {pid >= 0 ? -1 : 0};
    } else if (t.type == target::kind::profile || t.type == target::kind::tick) {
      attr.type = PERF_TYPE_SOFTWARE;
      attr.config = PERF_COUNT_SW_CPU_CLOCK;
      attr.sample_period = t.period;
      // -x cpu: both on that CPU alone, as dtrace-utils attaches them.
      if (options.cpu)
        on_cpus = {static_cast<int>(*options.cpu)};
      else
        for (std::uint32_t c = 0; c < (t.type == target::kind::tick ? 1 : cpus); ++c) on_cpus.push_back(static_cast<int>(c));
    } else {
      attr.type = PERF_TYPE_TRACEPOINT;
      attr.config = t.tracepoint_id;
      attr.sample_period = 1;
      attr.wakeup_events = 1;
      on_cpus = {0};  // a tracepoint's BPF program runs on every CPU
    }
    std::vector<fd> made_events, made_links;
    for (const int cpu : on_cpus) {
      fd event(perf_event_open(attr, cpu, pid));
      if (event.get() < 0) {
        if (errno == ENODEV && t.type == target::kind::profile) continue;  // an offline CPU
        return full_name(t.info) + ": perf_event_open: " + errno_text(errno);
      }
      fd link(bpf_link_create(program_fd, event.get(), BPF_PERF_EVENT, nullptr));
      if (link.get() < 0) return full_name(t.info) + ": attaching the program: " + errno_text(errno);
      if (::ioctl(event.get(), PERF_EVENT_IOC_ENABLE, 0) != 0)
        return full_name(t.info) + ": enabling the perf event: " + errno_text(errno);
      made_events.push_back(std::move(event));
      made_links.push_back(std::move(link));
    }
    for (auto& e : made_events) events.push_back(std::move(e));
    for (auto& l : made_links) links.push_back(std::move(l));
    return std::nullopt;
  }

  // The uprobe PMU's type and its retprobe bit, from sysfs (read once).
  struct uprobe_pmu_info {
    std::uint32_t type;
    std::uint64_t retprobe;
    std::uint32_t ref_ctr_shift;
  };
  static std::optional<uprobe_pmu_info> uprobe_pmu() {
    static const auto pmu = []() -> std::optional<uprobe_pmu_info> {
      const std::string dir = "/sys/bus/event_source/devices/uprobe/";
      std::ifstream type_file(dir + "type"), format_file(dir + "format/retprobe"),
          ref_ctr_file(dir + "format/ref_ctr_offset");
      std::uint32_t type = 0;
      std::string format, ref_ctr = "config:32-63";  // "config:0"; older kernels lack ref_ctr_offset
      if (!(type_file >> type) || !(format_file >> format) || format.rfind("config:", 0) != 0) return std::nullopt;
      ref_ctr_file >> ref_ctr;
      return uprobe_pmu_info{type, std::uint64_t{1} << std::stoul(format.substr(7)),
                             static_cast<std::uint32_t>(std::stoul(ref_ctr.substr(7)))};
    }();
    return pmu;
  }

  static int on_record(void* context, void* data, std::size_t size) {
    auto& st = *static_cast<state*>(context);
    if (size < record_header) return 0;
    std::uint32_t head[4];
    std::memcpy(head, data, sizeof head);
    const auto* body = static_cast<const std::byte*>(data) + record_header;
    const auto kind = head[0] & 0xffff, speculation = head[0] >> 16;
    if (kind == record_firing) {
      st.records.push_back(
          {head[1], head[2], head[3], std::vector<std::byte>(body, body + (size - record_header)), speculation});
    } else if (kind == record_fault && size >= record_header + fault_record) {
      std::uint64_t code_value[2];
      std::uint32_t pc_statement[2];
      std::memcpy(code_value, body, sizeof code_value);
      std::memcpy(pc_statement, body + sizeof code_value, sizeof pc_statement);
      st.faults.push_back({head[1], head[2], pc_statement[1], pc_statement[0],
                           static_cast<engine::fault_kind>(code_value[0]), code_value[1], {}});
    }
    return 0;
  }
};

// ---- the interface ------------------------------------------------------------------------------

std::optional<std::string> unavailable() {
  const int f = create_map(BPF_MAP_TYPE_ARRAY, "dtpp_probe", 4, 8, 1, 0);
  if (f < 0) {
    if (f == -EPERM) return "tracing the kernel needs root, or CAP_BPF and CAP_PERFMON";
    return "this kernel has no usable BPF (" + errno_text(f) + ")";
  }
  ::close(f);
  try {
    check_events_readable();
  } catch (const error& e) {
    return e.what();
  }
  return std::nullopt;
}

namespace {

// The probes the descriptions match (every kernel probe but dtrace's and profile's, when none is
// given), numbered as a run of them would number them: in order, each once.
std::vector<probe_info> list_probes(std::span<const ir::probe> descriptions) {
  event_subsystems events;
  probe_numbering numbering{events};
  std::vector<probe_info> out;
  std::set<std::uint32_t> listed;
  const auto add = [&](const ir::probe& d, bool in_process_too) {
    for (auto& t : match_probes(d, events)) {
      const bool in_process = t.type == target::kind::begin || t.type == target::kind::end ||
                              t.type == target::kind::error || t.type == target::kind::profile ||
                              t.type == target::kind::tick;
      if (in_process && !in_process_too) continue;
      t.info.id = numbering.id(t);
      if (listed.insert(t.info.id).second) out.push_back(t.info);
    }
  };
  if (!descriptions.empty()) {
    for (const auto& d : descriptions) add(d, true);
  } else {
    for (const char* provider : {"syscall", "tracepoint", "sched", "proc", "io"}) add({provider, "", "", "", {}}, false);
  }
  engine::sort_by_id(out);
  return out;
}

}  // namespace

std::vector<probe_info> list_probes(const ir::probe* description) {
  return description ? list_probes(std::span(description, 1)) : list_probes(std::span<const ir::probe>());
}

driver::driver(const ir::program& program, driver_options options) : state_(std::make_unique<state>()) {
  auto& st = *state_;
  st.program = program;
  st.options = options;
  const int possible = libbpf_num_possible_cpus();
  st.cpus = possible > 0 ? static_cast<std::uint32_t>(possible) : 1;
  st.note_new_processes();
  st.bind_probes();

  // Libraries a process maps later bring probes whose names are not known yet: string keys
  // holding probe names are then as wide as any string, but for a provider or probe name its
  // description spells out (`shop$target:::order`). A pid probe's module and function may be
  // named otherwise than the description names them (`a.out`, a demangled name).
  auto names = st.infos;
  const std::string any_name(std::size_t{1} << 16, ' ');
  const auto spelled_out = [&](const std::string& field) {
    return field.empty() || has_glob(field) ? any_name : field;
  };
  for (const auto& c : program.clauses)
    for (const auto& p : c.probes)
      if (follows_processes(p)) names.push_back({0, spelled_out(p.provider), any_name, any_name, spelled_out(p.name), {}, {}});
  st.plan = plan_layout(program, names, st.cpus, options.nspec, st.scratch_prefix, st.options.aggsize);
  st.plan.walltime_offset = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
  if (options.cpu && *options.cpu >= st.cpus)
    throw error("-x cpu=" + std::to_string(*options.cpu) + ": no such CPU");
  st.plan.cpu = options.cpu;
  st.plan.specsize = options.specsize;
  // vmlinux BTF costs megabytes to parse: only programs reading ppid or vtimestamp need it (the
  // checker loaded it already for one naming kernel types).
  if (uses_task_fields(program)) {
    st.plan.task_real_parent = member_offset("struct task_struct", "real_parent");
    st.plan.task_tgid = member_offset("struct task_struct", "tgid");
    const auto se = member_offset("struct task_struct", "se");
    const auto runtime = member_offset("struct sched_entity", "sum_exec_runtime");
    if (se >= 0 && runtime >= 0) st.plan.task_exec_runtime = se + runtime;
  }
  st.group_programs();
  st.create_maps();
  st.create_probe_tables();
  st.load_programs();
  st.keep_vtime();
  st.ring = ring_buffer__new(st.maps[map_ring].get(), &state::on_record, &st, nullptr);
  if (!st.ring) throw error("opening the ring buffer: " + errno_text(errno));
  for (std::size_t i = 0; i < program.aggregations.size(); ++i)
    st.aggregations.push_back(std::make_unique<map_aggregation>(
        program.aggregations[i], st.maps[st.plan.aggregation_map[i]].get(), st.plan.key_size[i], st.plan.key_widths[i],
        st.global(global_generations + 8 * static_cast<std::uint32_t>(i)), st.cpus,
        program.aggregations[i].keys.empty() ? round8(st.plan.slot_size[i]) : st.plan.slot_size[i],
        st.plan.cache_map[i] ? std::make_unique<front_cache>(st.maps[st.plan.cache_map[i]].get(), st.cpus,
                                                             st.plan.cache_slots[i], st.plan.key_size[i],
                                                             st.cache_entry(i))
                             : nullptr));
  st.drops_reported.assign(drop_slots * st.cpus, 0);
}

driver::~driver() = default;

const ir::program& driver::program() const { return state_->program; }
const std::vector<probe_info>& driver::probes() const { return state_->infos; }
std::size_t driver::instructions() const { return state_->instructions; }

void driver::go() {
  auto& st = *state_;
  st.run_in_kernel(target::kind::begin);
  if (!exited()) st.attach();
}

void driver::stop() {
  auto& st = *state_;
  st.detach();
  if (st.ended) return;
  st.ended = true;
  st.run_in_kernel(target::kind::end);
}

bool driver::exited() const { return __atomic_load_n(state_->global(global_exited), __ATOMIC_ACQUIRE) != 0; }
int driver::exit_status() const { return static_cast<int>(*state_->global(global_status)); }

std::vector<firing> driver::take_records() {
  state_->follow_loads();
  state_->follow_new_processes();
  ring_buffer__consume(state_->ring);
  return std::exchange(state_->records, {});
}

std::vector<fault> driver::take_faults() {
  ring_buffer__consume(state_->ring);
  return std::exchange(state_->faults, {});
}

std::vector<drop_count> driver::take_drops() {
  auto& st = *state_;
  std::vector<drop_count> out;
  std::vector<std::uint64_t> counts(st.cpus);
  std::uint64_t dynamic = 0, unavailable = 0, speculative = 0;
  for (std::uint32_t slot = 0; slot < drop_slots; ++slot) {
    if (bpf_map_lookup_elem(st.maps[map_drops].get(), &slot, counts.data()) != 0) continue;
    for (std::uint32_t cpu = 0; cpu < st.cpus; ++cpu) {
      auto& seen = st.drops_reported[slot * st.cpus + cpu];
      const auto fresh = counts[cpu] - seen;
      seen = counts[cpu];
      if (fresh == 0) continue;
      if (slot == drop_dynamic) dynamic += fresh;
      else if (slot == drop_speculation_unavailable) unavailable += fresh;
      else if (slot == drop_speculative) speculative += fresh;
      else out.push_back({slot == drop_principal ? drop_count::kind::principal : drop_count::kind::aggregation, cpu, fresh});
    }
  }
  if (dynamic) out.push_back({drop_count::kind::dynamic, 0, dynamic});
  if (unavailable) out.push_back({drop_count::kind::speculation_unavailable, 0, unavailable});
  if (speculative) out.push_back({drop_count::kind::speculative, 0, speculative});
  return out;
}

agg::live_aggregation& driver::aggregation(std::uint32_t varid) { return *state_->aggregations.at(varid - 1); }


engine::factory engine_factory() {
  return {
      .name = "kernel",
      .claims = names_kernel_provider,
      .make = [](const ir::program& program, const engine::run_options& run) -> std::unique_ptr<engine::source> {
        if (const auto why = unavailable()) throw error(*why);
        return std::make_unique<driver>(
            program, driver_options{.bufsize = run.bufsize, .aggsize = run.aggsize, .dynvarsize = run.dynvarsize,
                                    .nspec = run.nspec, .specsize = run.specsize, .zdefs = run.zdefs,
                                    .verifier_log = run.verifier_log, .verifier_log_size = run.verifier_log_size,
                                    .cpu = run.cpu});
      },
      // The kernel's own probes: BEGIN, END, profile and tick come from the in-process engine's
      // list when every probe is listed.
      .probes = [](const ir::program* program, const engine::run_options&) {
        if (!program) return unavailable() ? std::vector<probe_info>{} : list_probes();
        std::vector<ir::probe> descriptions;
        for (const auto& c : program->clauses) descriptions.insert(descriptions.end(), c.probes.begin(), c.probes.end());
        return list_probes(std::span<const ir::probe>(descriptions));
      },
      .types = kernel_types,
  };
}

std::vector<engine::factory> engines() { return {inproc::engine_factory(), engine_factory()}; }

}  // namespace dtpp::kernel
