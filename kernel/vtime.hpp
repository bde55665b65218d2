// vtimestamp in the kernel engine: each thread's on-CPU time in nanoseconds of
// bpf_ktime_get_ns's clock. The scheduler's own sum (se.sum_exec_runtime) moves only at ticks and
// switches, and its clock (rq_clock_task) drifts from bpf_ktime_get_ns's by milliseconds between
// CPUs, so a sched_switch program keeps each thread's time itself, in task storage, for programs
// that read vtimestamp; the others load and attach nothing of it.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <vector>

#include "insn.hpp"

namespace dtpp::kernel {

/// A thread's entry in the storage: its on-CPU nanoseconds until `since`, the time of its last
/// switch in or out (0: not seen yet). On CPU, vtimestamp = on_cpu + (now - since).
inline constexpr std::int16_t vtime_on_cpu = 0;
inline constexpr std::int16_t vtime_since = 8;
inline constexpr std::uint32_t vtime_entry_size = 16;

/// The tracepoint the program attaches to, as a tp_btf program: the type vmlinux BTF names it by.
inline constexpr const char* vtime_tracepoint_type = "btf_trace_sched_switch";

/// The tp_btf sched_switch program (its context: preempt, prev, next, prev_state): adds the time
/// since prev's last switch to prev's on_cpu, and notes the switch's time as next's `since`. A
/// thread first seen (it ran before the program was attached) starts from its
/// se.sum_exec_runtime, at `exec_runtime` bytes into its task_struct. `storage` is the task
/// storage map (vtime_entry_size-byte values).
/// r0 = the entry of the task whose pointer is at base + offset (r1 to r5 clobbered), created when
/// absent; to `skip` when the kernel has no memory for it. An entry first made starts from the
/// task's se.sum_exec_runtime (`since` still 0).
void vtime_entry(emitter& e, int storage, reg base, std::int16_t offset, std::int32_t exec_runtime, label skip);

std::vector<bpf_insn> vtime_switch_program(int storage, std::int32_t exec_runtime);

}  // namespace dtpp::kernel
