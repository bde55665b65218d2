// Checked D clauses to eBPF: one program per probe the kernel serves, running that probe's
// clauses in program order against the shared maps the driver creates.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtpp/engine/source.hpp"
#include "dtpp/kernel/driver.hpp"
#include "dtpp/ir/program.hpp"
#include "insn.hpp"
#include "usdt_arguments.hpp"

namespace dtpp::kernel {


/// Where argN of a probe comes from in its BPF context, and what tracefs calls and types it.
struct arg_field {
  std::uint32_t offset = 0;
  std::uint32_t size = 8;
  bool is_signed = false;
  std::string name;       ///< "filename"
  std::string type_name;  ///< as the format file declares it: "const char *", "char[16]", "__data_loc char[]"
  std::string translated{};  ///< a stable provider's: the type D's library translates it to ("psinfo_t *")
  std::string computed{};    ///< a stable provider's: the D library inline that computes args[N] (see ir::probe_argument)
};

/// A probe the kernel serves and the clauses it runs.
struct target {
  /// error: dtrace:::ERROR, which has no program of its own: every program runs its clauses
  /// after a fault.
  enum class kind : std::uint8_t { begin, end, error, syscall_entry, syscall_return, tracepoint, profile, tick,
                                   user_entry, user_return, usdt };
  kind type = kind::begin;
  probe_info info;
  std::vector<arg_field> args;       ///< entry / tracepoint arguments, in order
  std::uint32_t tracepoint_id = 0;   ///< tracefs event id (syscalls and tracepoints)
  /// A stable provider's probe: the raw tracepoint ("sched_wakeup") its program attaches to, whose
  /// context is the tracepoint's own arguments (u64 each: `struct task_struct *` ...), not the
  /// format file's record; empty for any other.
  std::string raw_tracepoint;
  std::uint64_t period = 0;          ///< profile / tick, nanoseconds
  /// A raw_syscalls program serving many system calls names the map (by index) that gives each
  /// system call number its probe id and function name; 0: one probe, known here.
  std::uint32_t probe_table = 0;
  /// A pid provider's uprobe (user_entry: at a function's entry or an offset in it; user_return)
  /// or a USDT site's (usdt):
  /// the object's path, the file offset of the instruction, and the process it fires for.
  std::string uprobe_path;
  std::uint64_t uprobe_offset = 0;
  std::int64_t uprobe_pid = 0;
  std::uint64_t entry_skip = 0;             ///< user_entry: bytes of a leading endbr64 the probe is placed past
  std::uint64_t semaphore_offset = 0;       ///< usdt: the semaphore's file offset; 0: none
  std::vector<usdt_argument> usdt_args;     ///< usdt: where each argN is
};

/// A probe table entry: the probe id, then the function name padded to strsize.
inline constexpr std::uint32_t probe_entry_name = 8;

/// The maps every program shares, by index into the driver's map table.
enum map_index : std::uint32_t { map_scratch, map_globals, map_ring, map_drops, map_fixed };

/// The front cache's limits: keys of at most this many bytes, at most this many slots a CPU,
/// and at most this many bytes for all CPUs' entries together (plan_layout halves the slots
/// until they fit, and keeps at least 16 or none).
inline constexpr std::uint32_t cache_key_bytes = 32;
inline constexpr std::uint32_t cache_slots_most = 256;
inline constexpr std::uint32_t cache_bytes_most = 1 << 20;

/// Bytes of one front cache entry: the key, then `[generation, words]`.
inline std::uint32_t cache_entry_size(std::uint32_t key_size, std::size_t words) {
  return key_size + 8 * static_cast<std::uint32_t>(words + 1);
}

/// Drop counters (per CPU) in the drops map.
enum drop_slot : std::uint32_t { drop_principal, drop_aggregation, drop_dynamic, drop_speculation_unavailable,
                                 drop_speculative, drop_slots };

/// A fault record's code: DTrace's DTRACEFLT_* numbers (engine::fault_kind's).
enum fault_code : std::int32_t {
  fault_bad_address = static_cast<std::int32_t>(engine::fault_kind::bad_address),
  fault_illegal_operation = static_cast<std::int32_t>(engine::fault_kind::illegal_operation),
  fault_divide_by_zero = static_cast<std::int32_t>(engine::fault_kind::divide_by_zero),
  fault_no_scratch = static_cast<std::int32_t>(engine::fault_kind::no_scratch),
  fault_bad_size = static_cast<std::int32_t>(engine::fault_kind::bad_size),
  fault_bad_index = static_cast<std::int32_t>(engine::fault_kind::bad_index),
};
/// A fault record's data after the header: the code (u64), the value (u64), the pc and the
/// statement id (u32 each; see engine::fault).
inline constexpr std::uint32_t fault_record = 24;

/// Ring buffer record kinds: the header's first half-word.
enum record_kind : std::uint16_t { record_firing = 1, record_fault = 2 };
/// The header: kind and speculation (u16 each: the speculative buffer speculate() sent the
/// firing to, 0 for none), then epid, probe and cpu (u32 each).
inline constexpr std::uint32_t record_header = 16;
inline constexpr std::int16_t record_speculation = 2;  ///< the speculation's offset in the header
inline constexpr std::uint32_t most_speculations = 0xffff;  ///< nspec's bound: a u16 names them

/// Offsets in the globals map (one mmap-able element the consumer reads and writes too).
inline constexpr std::uint32_t global_exited = 0;   ///< nonzero once exit() ran
inline constexpr std::uint32_t global_status = 8;   ///< exit()'s status
inline constexpr std::uint32_t global_generations = 16;  ///< one word per aggregation: clear()s

/// How the program's state is laid out over the maps; built once, shared by every program.
struct layout {
  std::uint32_t strsize = 264;       ///< the bytes of a string's place: -x strsize and a NUL, rounded up to 8
  std::uint32_t string_chars = 256;  ///< the most characters a string holds: -x strsize, as dtrace-utils cuts it
  std::uint32_t globals_size = 0;
  std::optional<probe_info> error_probe;  ///< dtrace:::ERROR, when the program enables it
  std::uint32_t nspec = 1;            ///< speculative buffers speculation() hands out
  std::uint32_t speculations = 0;     ///< in the globals: nspec words, nonzero for a buffer in use
  std::size_t specsize = 4u << 20;    ///< a speculating firing whose record passes it is dropped
  std::vector<std::uint32_t> variable_offset;  ///< in the globals, scratch (clause-locals) or task storage (thread-locals)
  std::vector<std::uint32_t> variable_map;     ///< map index of associative arrays; 0 else
  std::uint32_t thread_storage_size = 0;       ///< bytes of a thread's self-> scalars and strtok state
  /// In the thread's storage, when the program calls strtok(): `[offset, string]`, the string
  /// strtok(NULL, ...) goes on with and where in it (strsize bytes after the 8-byte offset).
  std::optional<std::uint32_t> strtok_state;
  std::uint32_t thread_map = 0;                ///< their task-storage map's index (after the others)
  std::uint32_t vtime_map = 0;  ///< the task storage of threads' on-CPU time (vtime.hpp), when vtimestamp is read
  std::vector<std::uint32_t> aggregation_map;  ///< per aggregation (varid - 1)
  std::uint32_t cpus = 1;                      ///< possible CPUs: keyed aggregations' slots
  /// Per aggregation, the bytes of one CPU's `[generation, words]` in its map value: a keyed
  /// aggregation's value holds one slot per CPU, 64-byte aligned so that CPUs updating one key
  /// write different cache lines; a keyless one is a per-CPU array entry.
  std::vector<std::uint32_t> slot_size;
  std::uint32_t zero_map = 0;   ///< an array whose one value (all zero) starts new keyed entries
  std::uint32_t zero_size = 0;  ///< its bytes: the largest keyed aggregation value
  std::vector<std::uint32_t> key_size;         ///< per aggregation: bytes of its kernel key
  /// Per aggregation, each key's bytes in the kernel key: 8 for integers; for strings, the most
  /// any expression stored there can hold (16 for execname, a literal's length ...), so that
  /// keys hash and copy no more than they need.
  std::vector<std::vector<std::uint32_t>> key_widths;
  /// Per aggregation, its front cache's map index (0: none) and slots per CPU (a power of two).
  /// Keys of at most cache_key_bytes updated by count, sum, avg, min, max or stddev get one: an
  /// array whose one value holds, for each CPU, direct-mapped entries `[key, generation, words]`.
  /// A key is added in place in the entry its hash names when that entry holds it or is empty
  /// (generation 0); only a collision goes to the hash map. Snapshots merge both.
  std::vector<std::uint32_t> cache_map;
  std::vector<std::uint32_t> cache_slots;
  std::vector<std::uint32_t> variable_key_size;  ///< per variable with a map
  std::vector<std::uint32_t> variable_value_size;
  std::int64_t walltime_offset = 0;            ///< CLOCK_REALTIME - CLOCK_MONOTONIC at load
  std::optional<std::uint32_t> cpu = {};       ///< -x cpu: the one CPU whose firings run clauses
  std::int64_t task_real_parent = -1, task_tgid = -1, task_exec_runtime = -1;  ///< from BTF
};

/// A program's per-CPU scratch memory: the record being built, strings, keys, clause locals and
/// the initial values of new aggregation entries. `image` is what every CPU's copy starts as
/// (constant strings and initial values live there, written once).
struct scratch_plan {
  std::vector<std::uint8_t> image;
  std::uint32_t allocate(std::uint32_t bytes) {
    const auto at = static_cast<std::uint32_t>(image.size());
    image.resize(image.size() + ((bytes + 7) & ~7u), 0);
    return at;
  }
};

/// Builds the layout of a program's variables and aggregations (no maps created yet) for the
/// probes it enabled; `scratch` gets the part every program's scratch starts with.
/// A front cache takes its bytes a CPU out of `aggsize` (what each aggregation may hold a CPU),
/// and only a quarter of it at most: a small aggsize keeps its exact limit on keys.
layout plan_layout(const ir::program& program, const std::vector<probe_info>& probes, std::uint32_t cpus,
                   std::size_t nspec, scratch_plan& scratch,
                   std::size_t aggsize = driver_options{}.aggsize);

/// One target's BPF program, and what the driver needs to know of it to run it.
struct generated_program {
  std::vector<bpf_insn> code;
  /// Whether the program asks the kernel about the task it runs in (pid, tid, execname, uid,
  /// curthread, ppid, self->, user memory, stacks, raise(), stop()): BEGIN and END programs that
  /// do run in the consumer's thread, the others from an interrupt.
  bool reads_task = false;
  /// The most bytes one run of the program can take in the ring buffer (records and the ring's
  /// headers): BEGIN and END, which run once, need no more room than this.
  std::uint64_t ring_bytes = 0;
};

/// Generates the BPF program for one target, allocating in its scratch; throws error for what it
/// cannot express (with the D source span). Map references are
/// map-table indexes (map_scratch: the program's own scratch), to be replaced by fds
/// (resolve_maps) once the driver has created the maps.
generated_program generate(const ir::program& program, const target& t, const layout& l, scratch_plan& scratch);

/// Replaces map-table indexes by the maps' fds.
void resolve_maps(std::vector<bpf_insn>& code, const std::vector<int>& fds);

}  // namespace dtpp::kernel
