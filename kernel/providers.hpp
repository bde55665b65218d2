// The probes the kernel offers, named as DTrace names them: dtrace:::BEGIN/END, profile:::profile-N
// and tick-N, syscall:vmlinux:NAME:entry/return (the syscalls tracepoints), and every other
// tracepoint as tracepoint:SUBSYSTEM::EVENT. Read from tracefs, which is mounted when missing.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen.hpp"

namespace dtpp::kernel {

/// tracefs's root, mounting it at /sys/kernel/tracing when nothing has; throws error saying how
/// when that fails.
const std::string& tracefs();

/// Throws error, saying what would help, when this user may not read tracefs's events (a user
/// with CAP_BPF and CAP_PERFMON but not root, on a tracefs mounted readable by root only).
void check_events_readable();

/// The subsystems having a tracepoint event of each name, from one read of tracefs's
/// available_events, made when first asked and kept: a bare probe name (BEGIN, tick-1s) would
/// otherwise cost a failed lookup in each of a hundred subsystems, and the file is slow to read
/// (tracefs walks its event list from the start for each page). One per run: events come and go.
class event_subsystems {
 public:
  /// The subsystems, sorted; none when no subsystem has the event.
  std::vector<std::string> of(const std::string& event);

  /// Every event as (subsystem, event), sorted; views of text this object keeps.
  std::vector<std::pair<std::string_view, std::string_view>> all();

 private:
  const std::string& text();
  std::optional<std::string> text_;  // lines "subsystem:event"
};

/// The kernel probes a description matches, in a stable order (BEGIN, END, profile, syscalls
/// by name, tracepoints by subsystem and event). Targets carry the tracepoint id and argument
/// layout read from tracefs; `info.clauses` is left empty. `events` serves bare names.
std::vector<target> match_probes(const ir::probe& description, event_subsystems& events);

/// The ids of the kernel's probes (dtpp/engine/probe_ids.hpp): dtrace's and profile's listed
/// ones, then from engine::first_engine_id on in the order list_probes() lists the kernel's: each
/// system call's entry, each one's return, the tracepoints by subsystem and event, the stable
/// probes (sched, proc, io); the probes no list holds (pid and USDT probes, another profile
/// rate) after all of those, in the order first numbered. Reads tracefs only as far as the
/// probes numbered need (BEGIN's id costs nothing), once: the event list `events` holds, which
/// is one file, not a directory per subsystem.
class probe_numbering {
 public:
  explicit probe_numbering(event_subsystems& events) : events_(events) {}

  /// A probe's id, the same on every call for the same probe (pid and USDT ones by place).
  std::uint32_t id(const target& t);

 private:
  struct listed_events {
    std::vector<std::string_view> entries, returns;  // the system calls of each, sorted
    std::vector<std::pair<std::string_view, std::string_view>> tracepoints;  // (subsystem, event), sorted
  };
  const listed_events& listed();

  event_subsystems& events_;
  std::optional<listed_events> listed_;
  std::map<std::string, std::uint32_t> unlisted_;
};

/// Why the kernel cannot serve a probe description (fbt, or a stable probe such as
/// sched:::on-cpu that needs a kprobe or an fentry program); nothing when no reason is known.
std::optional<std::string> unavailable_reason(const ir::probe& description);

/// Whether a probe description's field is a pattern (`*`, `?`, `[`) rather than one name.
bool has_glob(const std::string& field);

/// The process a pid or USDT provider names (pid1234, myprov1234); nothing for any other.
std::optional<std::int64_t> process_of(const ir::probe& description);

/// Whether a description names USDT sites of every process (PROVIDER*:::NAME), whose probes a
/// process that starts (or maps an object) later may bring.
bool follows_new_processes(const ir::probe& description);

/// The probes of such a description in the objects process `pid` maps now that `checked` does not
/// hold yet (each object examined is added to it); none for any other description.
std::vector<target> match_new_objects(const ir::probe& description, std::int64_t pid, std::set<std::string>& checked);

/// A system call's number, by the name its syscalls tracepoints use; nothing when the C library
/// this was built against does not know the call (a kernel newer than its headers).
std::optional<std::uint32_t> syscall_number(const std::string& name);

/// The raw_syscalls tracepoint that serves many system calls with one program: sys_enter's
/// (entry) or sys_exit's (return) id and layout (the number at 8, arguments or return at 16).
target raw_syscalls(target::kind kind);

}  // namespace dtpp::kernel
