// The probes the kernel offers, named as DTrace names them: dtrace:::BEGIN/END, profile:::profile-N
// and tick-N, syscall:vmlinux:NAME:entry/return (the syscalls tracepoints), and every other
// tracepoint as tracepoint:SUBSYSTEM::EVENT. Read from tracefs, which is mounted when missing.
#pragma once

#include <string>
#include <vector>

#include "codegen.hpp"

namespace dtpp::kernel {

/// tracefs's root, mounting it at /sys/kernel/tracing when nothing has; throws error saying how
/// when that fails.
const std::string& tracefs();

/// The kernel probes a description matches, in a stable order (BEGIN, END, profile, syscalls
/// by name, tracepoints by subsystem and event). Targets carry the tracepoint id and argument
/// layout read from tracefs; `clauses` is left empty.
std::vector<target> match_probes(const ir::probe& description);

}  // namespace dtpp::kernel
