// Ending a run's attachments without waiting on the kernel one attachment at a time. Closing the
// BPF link that puts a program on a perf event waits for an RCU tasks-trace grace period; closing
// a tracepoint's last perf event waits for two more while holding the kernel's event_mutex. Each
// is 20 to 55 ms on Linux 6.18 in a VM, which made 631 tracepoints take 34 s to detach.
#pragma once

#include <vector>

#include "fd.hpp"

namespace dtpp::kernel {

/// Closes every descriptor, many at once from threads of their own so that their grace periods
/// overlap. Returns once all are closed: for BPF links, once no program runs from them.
void close_together(std::vector<fd>& fds);

/// Closes descriptors whose release only frees kernel memory (perf events no program is attached
/// to any more) in a process of their own, which outlives this one if it must: the kernel releases
/// tracepoint events one at a time. Closes them here when no process can be made.
void release_in_background(std::vector<fd>& fds);

}  // namespace dtpp::kernel
