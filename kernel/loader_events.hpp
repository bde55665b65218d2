// Libraries a traced process maps after its probes are placed (dlopen, dlclose). As DTrace
// follows rtld through r_debug's r_brk, dtpp places a uprobe on the dynamic loader's
// _dl_debug_state, which the loader calls before and after it changes the list of objects. The
// uprobe's program counts the call and stops the process (SIGSTOP), so that the driver can match
// the probe descriptions again against the new mappings, and attach what they match, before the
// process runs on.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dtpp::kernel {

/// Where the loader's breakpoint function is: its object's path and the function's file offset.
struct loader_breakpoint {
  std::string path;
  std::uint64_t offset = 0;
};

/// The loader breakpoint of process `pid`'s dynamic loader; nothing for a static program (or a
/// process gone).
std::optional<loader_breakpoint> find_loader_breakpoint(std::int64_t pid);

/// The loader breakpoint of the dynamic loader at `path`; nothing when it has none.
std::optional<loader_breakpoint> loader_breakpoint_in(const std::string& path);

/// The uprobe program: adds one to entry `slot` of the array map `counters` (8-byte values),
/// then stops the process with SIGSTOP.
std::vector<bpf_insn> loader_program(int counters, std::uint32_t slot);

/// The program that notes processes which may bring new USDT sites (PROVIDER*:::NAME): run as a
/// program starts (sched_process_exec) and in any process's loader breakpoint, it adds the
/// process's id to the hash map `pids` (4-byte keys and values), for the driver to examine and
/// delete. Nothing stops: sites found are placed within the driver's next poll, and a firing
/// before that is missed, as DTrace's deferred USDT discovery misses it.
std::vector<bpf_insn> process_noting_program(int pids);

/// Waits up to a second for a thread of process `pid` to stop: 'T' when one is stopped by a
/// signal, else 't' (stopped for its tracer), or 0 when none stopped (or the process is gone).
char wait_until_stopped(std::int64_t pid);

}  // namespace dtpp::kernel
