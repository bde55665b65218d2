#include "providers.hpp"

#include "dtpp/engine/probe_ids.hpp"
#include "dtpp/ir/period.hpp"
#include "dtpp/kernel/driver.hpp"
#include "dtpp/symbols/cache.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <span>
#include <sstream>

namespace dtpp::kernel {
namespace {

constexpr long tracefs_magic = 0x74726163;  // TRACEFS_MAGIC

bool is_tracefs(const std::string& path) {
  struct statfs st {};
  return ::statfs(path.c_str(), &st) == 0 && st.f_type == tracefs_magic;
}

bool matches(const std::string& pattern, const std::string& text) {
  return pattern.empty() || ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// tracefs is readable by root alone unless mounted otherwise: to a user with CAP_BPF and
// CAP_PERFMON it would look empty, and every description would match no probe.
[[noreturn]] void unreadable(const std::string& path, int e) {
  throw error("cannot read " + path + ": " + std::strerror(e) + " (tracefs is readable by root only here: run as root, " +
              "or mount it so that a group of this user's can read it: 'mount -o remount,gid=GROUP,mode=0750 " +
              tracefs() + "')");
}

bool refused(int e) { return e == EACCES || e == EPERM; }

std::vector<std::string> entries(const std::string& dir, bool directories) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d && refused(errno)) unreadable(dir, errno);
  if (!d) return out;
  while (const auto* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if ((e->d_type == DT_DIR) == directories) out.push_back(name);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

// A field's type from its declaration without the name: "const char * " and "" give
// "const char *", "char " and "[16]" give "char[16]".
std::string declared_type(std::string before_name, const std::string& bounds) {
  while (!before_name.empty() && before_name.back() == ' ') before_name.pop_back();
  return before_name + bounds;
}

// The tracepoint's id and its fields after the common ones, as arguments.
bool read_format(const std::string& subsystem, const std::string& event, target& t) {
  const auto path = tracefs() + "/events/" + subsystem + "/" + event + "/format";
  std::ifstream in(path);
  if (!in && refused(errno)) unreadable(path, errno);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("ID:", 0) == 0) t.tracepoint_id = static_cast<std::uint32_t>(std::stoul(line.substr(3)));
    const auto field = line.find("field:");
    if (field == std::string::npos) continue;
    const auto decl = line.substr(field + 6, line.find(';', field) - field - 6);
    const auto number = [&](const char* name) {
      const auto at = line.find(name);
      return at == std::string::npos ? 0u : static_cast<std::uint32_t>(std::stoul(line.substr(at + std::strlen(name))));
    };
    // The name is the last identifier of the declaration, before its array bounds if it ends
    // with some ("char comm[16]"; "__data_loc char[] filename" has its bounds before the name).
    auto end = !decl.empty() && decl.back() == ']' ? decl.find('[') : decl.size();
    auto begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(decl[begin - 1])) || decl[begin - 1] == '_')) --begin;
    const auto name = decl.substr(begin, end - begin);
    if (name.rfind("common_", 0) == 0 || name == "__syscall_nr") continue;
    t.args.push_back({number("offset:"), number("size:"), number("signed:") != 0, name,
                      declared_type(decl.substr(0, begin), decl.substr(end)), {}});
  }
  return t.tracepoint_id != 0;
}

struct numbered {
  const char* name;
  std::uint32_t number;
};
constexpr numbered syscall_numbers[] = {
#include "dtpp/syscall_numbers.inc"
};

// The process a pid provider names ("pid1234"); nothing for any other provider.
std::optional<std::int64_t> pid_provider(const std::string& provider) {
  if (provider.size() < 4 || provider.size() > 13 || provider.rfind("pid", 0) != 0 ||
      provider.find_first_not_of("0123456789", 3) != std::string::npos)
    return std::nullopt;
  return std::stoll(provider.substr(3));
}

// A probe name that is an instruction offset ("1c", "0x1c"): the offset.
std::optional<std::uint64_t> offset_name(const std::string& name) {
  const auto digits = name.rfind("0x", 0) == 0 ? name.substr(2) : name;
  if (digits.empty() || digits.size() > 16 || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    return std::nullopt;
  return std::stoull(digits, nullptr, 16);
}

// The pid provider of process `pid`: in each executable mapping of a file (the executable is
// module a.out, as DTrace names it), the functions of its symbol tables, matched by their
// demangled or mangled names; probes at entry, return, or an offset into the function.
// The objects of process `pid`'s executable mappings, each with its module name: the
// executable's is a.out, as DTrace names it, a library's its file's name.
struct process_object {
  std::string path, module;
  const symbols::object* object;
};
std::vector<process_object> process_objects(std::int64_t pid) {
  auto& symbols = symbols::shared_cache();
  char exe[4096] = {};
  const auto exe_size = ::readlink(("/proc/" + std::to_string(pid) + "/exe").c_str(), exe, sizeof exe - 1);
  const std::string executable(exe, exe_size > 0 ? static_cast<std::size_t>(exe_size) : 0);
  symbols.remember(pid);  // its frames are named from the same tables, even once it is gone
  std::vector<process_object> out;
  for (const auto& m : symbols::read_maps(pid))
    if (m.executable && !m.path.empty() && m.path.front() == '/' &&
        std::none_of(out.begin(), out.end(), [&](const process_object& o) { return o.path == m.path; }))
      out.push_back({m.path, m.path == executable ? std::string("a.out") : m.path.substr(m.path.rfind('/') + 1),
                     &symbols.object_at(m.path)});
  return out;
}

// A pid provider's module as libproc names objects: a pattern, or an object's name or its start up
// to a '.' ("libc.so" and "libc" are libc.so.6, as in DTrace's pid$target:libc.so:malloc:entry).
bool module_matches(const std::string& pattern, const std::string& module) {
  if (matches(pattern, module)) return true;
  return !has_glob(pattern) && module.size() > pattern.size() && module.compare(0, pattern.size(), pattern) == 0 &&
         module[pattern.size()] == '.';
}

// How far into a function its entry probe goes: past a leading endbr64 (f3 0f 1e fa, GCC's
// -fcf-protection), which changes no register and no memory (Linux enables no indirect branch
// tracking in user space) and which a uprobe traps on and single-steps, to the instruction after
// it, often a `push %rbp` that x86 uprobes emulate. 0 for any other function.
std::uint64_t entry_skip(const std::string& path, std::uint64_t file_offset, std::uint64_t size) {
  constexpr unsigned char endbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
  unsigned char first[sizeof endbr64] = {};
  if (size <= sizeof endbr64) return 0;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  const auto got = ::pread(fd, first, sizeof first, static_cast<off_t>(file_offset));
  ::close(fd);
  return got == sizeof first && std::memcmp(first, endbr64, sizeof first) == 0 ? sizeof endbr64 : 0;
}

void match_pid_probes(const ir::probe& p, std::int64_t pid, std::vector<target>& out) {
  const auto offset = offset_name(p.name);  // never a glob: only hex digits
  const auto provider = "pid" + std::to_string(pid);
  for (const auto& [path, module, o] : process_objects(pid)) {
    if (!module_matches(p.module, module)) continue;
    const auto& object = *o;
    for (const auto& f : object.functions()) {
      if (!matches(p.function, f.name) && !matches(p.function, f.mangled)) continue;
      const auto add = [&](target::kind type, std::string name, std::uint64_t at) {
        const auto file_offset = object.file_offset_of(f.address + at);
        if (!file_offset) return false;
        target t;
        t.type = type;
        t.info = {0, provider, module, f.name, std::move(name), {}, {}};
        t.uprobe_path = path;
        t.uprobe_offset = *file_offset;
        t.uprobe_pid = pid;
        out.push_back(std::move(t));
        return true;
      };
      if (offset) {
        if (f.size > *offset) add(target::kind::user_entry, p.name, *offset);
        continue;
      }
      if (matches(p.name, "entry")) {
        const auto start = object.file_offset_of(f.address);
        const auto skip = start ? entry_skip(path, *start, f.size) : 0;
        if (add(target::kind::user_entry, "entry", skip)) out.back().entry_skip = skip;
      }
      if (matches(p.name, "return")) add(target::kind::user_return, "return", 0);
    }
  }
}

// A USDT provider of one process ("myprov1234", from myprov$target): the provider's name and the
// process, which must exist and run a program (not a kernel thread, so that "http2" is not
// taken for kthreadd's); nothing for any other provider.
std::optional<std::pair<std::string, std::int64_t>> usdt_provider(const std::string& provider) {
  const auto digits = provider.find_last_not_of("0123456789");
  if (digits == std::string::npos || digits + 1 == provider.size() || provider.size() - digits > 11 || has_glob(provider) ||
      pid_provider(provider))
    return std::nullopt;
  const auto pid = std::stoll(provider.substr(digits + 1));
  char exe[8];
  if (::readlink(("/proc/" + std::to_string(pid) + "/exe").c_str(), exe, sizeof exe) < 0) return std::nullopt;
  return std::make_pair(provider.substr(0, digits + 1), pid);
}

// USDT providers of every process ("myprov*", as DTrace's myprov*:::NAME names myprov1234,
// myprov5678 ...): the provider names' glob, matched against a provider name with a process id
// after it; nothing for any other description, or one of a provider the kernel names itself.
std::optional<std::string> any_process_usdt_provider(const std::string& provider) {
  const auto name = provider.substr(0, provider.size() - 1);
  if (provider.size() < 2 || provider.back() != '*' || has_glob(name) || name == "pid") return std::nullopt;
  for (const char* own : {"syscall", "tracepoint", "sched", "proc", "io", "profile", "dtrace", "fbt"})
    if (matches(provider, own)) return std::nullopt;
  return provider;
}

// Accepts the provider names of a note that an every-process glob ("shop*") matches with a
// process id after them, as DTrace's shop1234.
struct usdt_provider_glob {
  std::string glob;
  bool operator()(const std::string& name) const { return matches(glob, name + "1"); }
};

// The objects process `pid` maps that `checked` does not hold yet and that have USDT sites of a
// provider `accepts`, each added to `checked` (module a.out for the process's executable): each
// file is read for its notes alone, and only one with such a site is read whole.
template <typename Accepts>
void add_objects_with_sites(std::int64_t pid, Accepts accepts, std::set<std::string>& checked,
                            std::vector<process_object>& out) {
  char exe[4096] = {};
  const auto exe_size = ::readlink(("/proc/" + std::to_string(pid) + "/exe").c_str(), exe, sizeof exe - 1);
  const std::string executable(exe, exe_size > 0 ? static_cast<std::size_t>(exe_size) : 0);
  for (const auto& m : symbols::read_maps(pid))
    if (m.executable && !m.path.empty() && m.path.front() == '/' && checked.insert(m.path).second &&
        std::ranges::any_of(symbols::object::usdt_sites_of(m.path),
                            [&](const symbols::usdt_site& site) { return accepts(site.provider); }))
      out.push_back({m.path, m.path == executable ? std::string("a.out") : m.path.substr(m.path.rfind('/') + 1),
                     &symbols::shared_cache().object_at(m.path)});
}

// Every object with USDT sites of a provider `accepts` that some process maps now, each once.
template <typename Accepts>
std::vector<process_object> mapped_objects(Accepts accepts) {
  std::vector<process_object> out;
  DIR* d = ::opendir("/proc");
  if (!d) return out;
  std::vector<std::int64_t> pids;
  while (const auto* e = ::readdir(d))
    if (e->d_name[0] >= '1' && e->d_name[0] <= '9') pids.push_back(std::atoll(e->d_name));
  ::closedir(d);
  std::set<std::string> checked;
  for (const auto pid : pids) add_objects_with_sites(pid, accepts, checked, out);
  return out;
}

// The USDT sites of `objects` whose provider `accepts`: a probe each, in the function that holds
// the site, firing in process `pid` (-1: every process that maps the object).
template <typename Accepts>
void match_usdt_sites(const ir::probe& p, const std::vector<process_object>& objects, Accepts accepts,
                      std::int64_t pid, std::vector<target>& out) {
  for (const auto& [path, module, object] : objects) {
    if (!matches(p.module, module)) continue;
    for (const auto& site : object->usdt_sites()) {
      if (!accepts(site.provider) || !matches(p.name, site.name)) continue;
      const auto name = site.provider;
      const auto* f = object->function_at(site.address);
      const auto function = f ? f->name : std::string();
      if (!matches(p.function, function) && !(f && matches(p.function, f->mangled))) continue;
      const auto file_offset = object->file_offset_of(site.address);
      if (!file_offset) continue;
      auto arguments = parse_usdt_arguments(site.arguments);
      if (!arguments)
        throw error("USDT probe " + name + ":" + site.name + " in " + path + ": arguments '" + site.arguments +
                    "' are not supported", p.where);
      target t;
      t.type = target::kind::usdt;
      t.info = {0, pid < 0 ? site.provider : p.provider, module, function, site.name, {}, {}};
      t.uprobe_path = path;
      t.uprobe_offset = *file_offset;
      t.uprobe_pid = pid;
      t.semaphore_offset = site.semaphore ? object->file_offset_of(site.semaphore).value_or(0) : 0;
      t.usdt_args = std::move(*arguments);
      out.push_back(std::move(t));
    }
  }
}

// DTrace's stable probes that a tracepoint serves: provider:vmlinux::name on subsystem/event.
// The probe fires where the tracepoint does: sched:::off-cpu in the thread leaving the CPU,
// proc:::exec-success in the process that exec'd, proc:::create in the parent. Its program is
// the tracepoint's raw one, whose arguments are the kernel's own (the BTF prototype of
// btf_trace_EVENT): each of DTrace's args[] is one of them, with its native type and the type
// D's library translates it to (none: D sees the native type).
struct stable_argument {
  const char* translated;
  const char* native;
  std::uint32_t raw;  // which of the tracepoint's arguments
  std::uint32_t size;
  bool is_signed;
  const char* computed = "";  // the D library inline that computes it from the raw arguments
};
constexpr stable_argument task_as(const char* translated, std::uint32_t raw) {
  return {translated, "struct task_struct *", raw, 8, false};
}
constexpr stable_argument request_as(const char* translated) { return {translated, "struct request *", 0, 8, false}; }
constexpr stable_argument signal_number(std::uint32_t raw) { return {"", "int", raw, 4, true}; }
struct stable_probe {
  const char* provider;
  const char* name;
  const char* subsystem;
  const char* event;
  std::vector<stable_argument> arguments;
};
const stable_probe stable_probes[] = {
    // sched_switch(preempt, prev, next, prev_state): DTrace's arguments are the next thread's.
    {"sched", "off-cpu", "sched", "sched_switch", {task_as("lwpsinfo_t *", 2), task_as("psinfo_t *", 2)}},
    {"sched", "wakeup", "sched", "sched_wakeup", {task_as("lwpsinfo_t *", 0), task_as("psinfo_t *", 0)}},
    // sched_pi_setprio(tsk, pi_task): the new priority is computed from both (procfs.d).
    {"sched", "change-pri", "sched", "sched_pi_setprio",
     {task_as("lwpsinfo_t *", 0), task_as("psinfo_t *", 0), {"", "int", 1, 8, false, "__dtpp_pi_new_priority"}}},
    // sched_process_fork(parent, child): the new process.
    {"proc", "create", "sched", "sched_process_fork", {task_as("psinfo_t *", 1)}},
    {"proc", "exec-success", "sched", "sched_process_exec", {}},
    {"proc", "lwp-exit", "sched", "sched_process_exit", {}},
    // signal_generate(sig, info, task, group, result): the thread the signal is sent to.
    {"proc", "signal-send", "signal", "signal_generate",
     {task_as("lwpsinfo_t *", 2), task_as("psinfo_t *", 2), signal_number(0)}},
    // signal_deliver(sig, info, ka).
    {"proc", "signal-handle", "signal", "signal_deliver", {signal_number(0), {"", "struct kernel_siginfo *", 1, 8, false}}},
    {"io", "start", "block", "block_rq_issue",
     {request_as("bufinfo_t *"), request_as("devinfo_t *"), request_as("fileinfo_t *")}},
    {"io", "done", "block", "block_rq_complete",
     {request_as("bufinfo_t *"), request_as("devinfo_t *"), request_as("fileinfo_t *")}},
};

// DTrace's stable probes that only a kprobe or an fentry program could serve (no tracepoint
// fires where they do), and where they fire.
struct kprobe_probe {
  const char* provider;
  const char* name;
  const char* where;
};
constexpr kprobe_probe kprobe_probes[] = {
    {"sched", "on-cpu", "in the thread coming onto the CPU, after the switch (finish_task_switch)"},
    {"sched", "remain-cpu", "in __schedule when no other thread is chosen"},
    {"sched", "enqueue", "in enqueue_task"},
    {"sched", "dequeue", "in dequeue_task"},
    {"sched", "sleep", "where a thread blocks (__schedule with a sleeping state)"},
    {"sched", "preempt", "in preempt_schedule"},
    {"sched", "surrender", "in resched_curr"},
    {"sched", "tick", "in scheduler_tick"},
    {"proc", "exec", "as exec starts (bprm_execve)"},
    {"proc", "exec-failure", "as a failed exec returns (bprm_execve)"},
    {"proc", "exit", "when a process's last thread exits (taskstats_exit)"},
    {"proc", "signal-clear", "in dequeue_signal"},
    {"proc", "lwp-create", "in copy_process, for a thread"},
    {"proc", "lwp-start", "in the new thread (schedule_tail)"},
    {"proc", "start", "in the new process (schedule_tail)"},
    {"io", "wait-start", "as a thread waits for a buffer (wait_on_buffer)"},
    {"io", "wait-done", "as that wait ends"},
};

// DTrace's providers that nothing on this kernel can serve, and why: a probe of theirs is refused
// with the reason rather than "does not match any probes".
struct unserved_provider {
  const char* provider;
  const char* reason;
  bool needs_kprobes;  // the reason then ends with this kernel's lack of them
};
constexpr unserved_provider unserved_providers[] = {
    {"lockstat", "lockstat probes are fbt probes on the kernel's lock functions (mutex_lock, _raw_spin_lock, ...), "
                 "which need a kprobe or an fentry program", true},
    {"ip", "ip probes are fbt probes on the kernel's IP functions (ip_local_deliver, ip_finish_output, ...), which "
           "need a kprobe or an fentry program", true},
    {"tcp", "tcp probes are fbt probes on the kernel's TCP functions, which need a kprobe or an fentry program", true},
    {"udp", "udp probes are fbt probes on the kernel's UDP functions, which need a kprobe or an fentry program", true},
    {"sysinfo", "sysinfo probes are Solaris's kernel statistics counters, which Linux does not have", false},
    {"vminfo", "vminfo probes are Solaris's virtual memory statistics counters, which Linux does not have", false},
    {"dt_test", "dt_test probes come from DTrace's test kernel module, which this kernel does not have", false},
    {"sdt", "sdt probes are Solaris's statically defined kernel probes; Linux's are its tracepoints "
            "(tracepoint:SUBSYSTEM::EVENT)", false},
};

// Solaris's sdt probes that scripts name without their provider (interrupt-start { ... }).
constexpr const char* solaris_sdt_names[] = {"interrupt-start", "interrupt-complete", "callout-start", "callout-end"};

// Whether a description naming one event (no subsystem) may name a tracepoint. Event names are
// C identifiers, the kernel's and dynamic events' alike (tick-1s is none); and bare BEGIN, END
// and ERROR are the dtrace provider's probes. Looking them up in available_events was a tenth
// of the CPU time of `BEGIN { exit(0); }`; tracepoint:::BEGIN still looks.
bool may_be_event(const ir::probe& p) {
  const auto identifier_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (std::isdigit(static_cast<unsigned char>(p.name[0])) || !std::all_of(p.name.begin(), p.name.end(), identifier_char))
    return false;
  return !p.provider.empty() || (p.name != "BEGIN" && p.name != "END" && p.name != "ERROR");
}

const unserved_provider* unserved(const ir::probe& p) {
  const bool solaris_sdt = p.provider.empty() && std::any_of(std::begin(solaris_sdt_names), std::end(solaris_sdt_names),
                                                             [&](const char* name) { return p.name == name; });
  const std::string provider = solaris_sdt ? "sdt" : p.provider;
  for (const auto& u : unserved_providers)
    if (provider == u.provider) return &u;
  return nullptr;
}

}  // namespace

bool has_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

// Calls newer than Debian 12's headers. From 424 on, every architecture numbers new calls alike
// (each checked here by calling it under its own syscalls tracepoint).
constexpr numbered newer_syscalls[] = {
    {"cachestat", 451}, {"fchmodat2", 452}, {"futex_wake", 454}, {"futex_wait", 455},
    {"futex_requeue", 456}, {"statmount", 457}, {"listmount", 458}, {"lsm_get_self_attr", 459},
    {"lsm_set_self_attr", 460}, {"lsm_list_modules", 461}, {"mseal", 462}, {"setxattrat", 463},
    {"getxattrat", 464}, {"listxattrat", 465}, {"removexattrat", 466}, {"open_tree_attr", 467},
    {"file_getattr", 468}, {"file_setattr", 469}};

bool follows_new_processes(const ir::probe& d) { return any_process_usdt_provider(d.provider).has_value(); }

std::vector<target> match_new_objects(const ir::probe& d, std::int64_t pid, std::set<std::string>& checked) {
  std::vector<target> out;
  const auto glob = any_process_usdt_provider(d.provider);
  if (!glob) return out;
  std::vector<process_object> objects;
  add_objects_with_sites(pid, usdt_provider_glob{*glob}, checked, objects);
  match_usdt_sites(d, objects, usdt_provider_glob{*glob}, -1, out);
  return out;
}

std::optional<std::uint32_t> syscall_number(const std::string& name) {
  // The tracepoints carry the kernel's function names; a few differ from the calls' names.
  static const std::pair<const char*, const char*> renamed[] = {
      {"newfstat", "fstat"}, {"newlstat", "lstat"}, {"newstat", "stat"},
      {"newuname", "uname"}, {"sendfile64", "sendfile"}, {"umount", "umount2"}};
  std::string call = name;
  for (const auto& [tracepoint, syscall] : renamed)
    if (call == tracepoint) call = syscall;
  for (const auto table : {std::span<const numbered>(syscall_numbers), std::span<const numbered>(newer_syscalls)})
    for (const auto& s : table)
      if (call == s.name) return s.number;
  return std::nullopt;
}

target raw_syscalls(target::kind kind) {
  target t;
  t.type = kind;
  const bool entry = kind == target::kind::syscall_entry;
  if (!read_format("raw_syscalls", entry ? "sys_enter" : "sys_exit", t))
    throw error("tracefs has no raw_syscalls events");
  t.args.clear();
  if (entry)
    for (std::uint32_t i = 0; i < 6; ++i) t.args.push_back({16 + 8 * i, 8, false, {}, "unsigned long", {}});
  return t;
}

std::optional<std::int64_t> process_of(const ir::probe& d) {
  if (const auto pid = pid_provider(d.provider)) return pid;
  if (const auto usdt = usdt_provider(d.provider)) return usdt->second;
  return std::nullopt;
}

std::optional<std::string> unavailable_reason(const ir::probe& p) {
  const std::string no_kprobes = "this kernel has no kprobes and refuses fentry programs";
  if (p.provider == "fbt")
    return "fbt probes need a kprobe or an fentry program at each function, and " + no_kprobes;
  for (const auto& k : kprobe_probes)
    if (p.provider == k.provider && p.name == k.name && !has_glob(p.module) && !has_glob(p.function))
      return "probe " + std::string(k.provider) + ":::" + k.name + " needs a kprobe or an fentry program (it fires " +
             k.where + "), and " + no_kprobes;
  if (const auto* u = unserved(p)) return u->needs_kprobes ? u->reason + (", and " + no_kprobes) : u->reason;
  return std::nullopt;
}

const std::string& tracefs() {
  static const std::string root = [] {
    for (const char* path : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"})
      if (is_tracefs(path)) return std::string(path);
    if (::mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, nullptr) == 0) return std::string("/sys/kernel/tracing");
    throw error(std::string("tracefs is not mounted and mounting it failed (") + std::strerror(errno) +
                "): run 'mount -t tracefs tracefs /sys/kernel/tracing' as root");
  }();
  return root;
}

void check_events_readable() {
  const auto dir = tracefs() + "/events";
  DIR* d = ::opendir(dir.c_str());
  if (!d && refused(errno)) unreadable(dir, errno);
  if (d) ::closedir(d);
}

const std::string& event_subsystems::text() {
  if (!text_) {
    const auto path = tracefs() + "/available_events";
    const int f = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f < 0 && refused(errno)) unreadable(path, errno);
    auto& text = text_.emplace("\n");  // every line starts after a newline
    text.reserve(std::size_t{1} << 17);  // the file's size is not known before it is read
    char page[16384];
    for (ssize_t n; f >= 0 && (n = ::read(f, page, sizeof page)) > 0;) text.append(page, static_cast<std::size_t>(n));
    if (f >= 0) ::close(f);
  }
  return *text_;
}

std::vector<std::string> event_subsystems::of(const std::string& event) {
  const auto& lines = text();
  std::vector<std::string> out;
  const auto line_end = ":" + event + "\n";
  for (auto at = lines.find(line_end); at != std::string::npos; at = lines.find(line_end, at + 1)) {
    const auto start = lines.rfind('\n', at) + 1;
    out.push_back(lines.substr(start, at - start));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<std::string_view, std::string_view>> event_subsystems::all() {
  const std::string_view lines = text();
  std::vector<std::pair<std::string_view, std::string_view>> out;
  for (std::size_t start = 1, end; (end = lines.find('\n', start)) != std::string_view::npos; start = end + 1) {
    const auto colon = lines.find(':', start);
    if (colon < end) out.emplace_back(lines.substr(start, colon - start), lines.substr(colon + 1, end - colon - 1));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<target> match_probes(const ir::probe& p, event_subsystems& events) {
  std::vector<target> out;
  const auto add = [&](target::kind type, std::string provider, std::string module, std::string function, std::string name) {
    if (!matches(p.provider, provider) || !matches(p.module, module) || !matches(p.function, function) ||
        !matches(p.name, name))
      return false;
    target t;
    t.type = type;
    t.info = {0, std::move(provider), std::move(module), std::move(function), std::move(name), {}, {}};
    out.push_back(std::move(t));
    return true;
  };
  add(target::kind::begin, "dtrace", "", "", "BEGIN");
  add(target::kind::end, "dtrace", "", "", "END");
  add(target::kind::error, "dtrace", "", "", "ERROR");
  const auto add_timer = [&](const std::string& name) {
    if (add(name[0] == 't' ? target::kind::tick : target::kind::profile, "profile", "", "", name))
      out.back().period = ir::period_of(name);
  };
  const bool timer = p.name.rfind("tick-", 0) == 0 || p.name.rfind("profile-", 0) == 0;
  if (timer && !has_glob(p.name)) {
    add_timer(p.name);
  } else if (p.name.empty() || has_glob(p.name)) {  // profile:::, profile:::tick-*: the listed rates
    for (const auto name : engine::listed_profile_probes) add_timer(std::string(name));
  }

  if (matches(p.provider, "syscall") && matches(p.module, "vmlinux")) {
    const auto dir = tracefs() + "/events/syscalls";
    for (const char* kind : {"sys_enter_", "sys_exit_"}) {
      const bool entry = kind[4] == 'e' && kind[5] == 'n';
      if (!matches(p.name, entry ? "entry" : "return")) continue;
      const auto events = !has_glob(p.function) && !p.function.empty()
                              ? std::vector<std::string>{kind + p.function}
                              : entries(dir, true);
      for (const auto& event : events) {
        if (event.rfind(kind, 0) != 0) continue;
        const auto name = event.substr(std::strlen(kind));
        if (!add(entry ? target::kind::syscall_entry : target::kind::syscall_return, "syscall", "vmlinux",
                 name, entry ? "entry" : "return"))
          continue;
        if (!read_format("syscalls", event, out.back())) out.pop_back();
      }
    }
  }
  for (const auto& s : stable_probes) {
    if (!add(target::kind::tracepoint, s.provider, "vmlinux", "", s.name)) continue;
    // The format file says whether the kernel has the tracepoint; its fields are not DTrace's arguments.
    auto& t = out.back();
    if (!read_format(s.subsystem, s.event, t)) {
      out.pop_back();
      continue;
    }
    t.raw_tracepoint = s.event;
    t.args.clear();
    for (const auto& a : s.arguments)
      t.args.push_back({8 * a.raw, a.size, a.is_signed, {}, a.native, a.translated, a.computed});
  }
  if (const auto pid = pid_provider(p.provider)) match_pid_probes(p, *pid, out);
  if (const auto usdt = usdt_provider(p.provider))
    match_usdt_sites(p, process_objects(usdt->second), [&](const std::string& name) { return name == usdt->first; },
                     usdt->second, out);
  if (const auto glob = any_process_usdt_provider(p.provider))
    match_usdt_sites(p, mapped_objects(usdt_provider_glob{*glob}), usdt_provider_glob{*glob}, -1, out);
  if (matches(p.provider, "tracepoint") && matches(p.function, "")) {
    const bool one_name = !has_glob(p.name) && !p.name.empty();
    const auto subsystems = !has_glob(p.module) && !p.module.empty() ? std::vector<std::string>{p.module}
                            : one_name                               ? (may_be_event(p) ? events.of(p.name)
                                                                                        : std::vector<std::string>{})
                                                                     : entries(tracefs() + "/events", true);
    for (const auto& subsystem : subsystems) {
      if (subsystem == "syscalls" || subsystem == "ftrace" || !matches(p.module, subsystem)) continue;
      const auto events = one_name ? std::vector<std::string>{p.name} : entries(tracefs() + "/events/" + subsystem, true);
      for (const auto& event : events) {
        if (!add(target::kind::tracepoint, "tracepoint", subsystem, "", event)) continue;
        if (!read_format(subsystem, event, out.back())) out.pop_back();
      }
    }
  }
  return out;
}

const probe_numbering::listed_events& probe_numbering::listed() {
  if (!listed_) {
    auto& out = listed_.emplace();
    // all() is sorted, so each list is (the system calls' names share a prefix). ftrace's own
    // events are not in it, as they are not in the listing.
    for (const auto& event : events_.all()) {
      if (event.first != "syscalls")
        out.tracepoints.push_back(event);
      else if (event.second.starts_with("sys_enter_"))
        out.entries.push_back(event.second.substr(10));
      else if (event.second.starts_with("sys_exit_"))
        out.returns.push_back(event.second.substr(9));
    }
  }
  return *listed_;
}

std::uint32_t probe_numbering::id(const target& t) {
  if (const auto listed = engine::listed_id(t.info.provider, t.info.name)) return listed;
  // Each list's probes from `next` on, in the list's (sorted) order; 0: not in it.
  auto next = engine::first_engine_id;
  const auto position = [&](const auto& list, const auto& item) -> std::uint32_t {
    const auto it = std::lower_bound(list.begin(), list.end(), item);
    return it != list.end() && *it == item ? next + static_cast<std::uint32_t>(it - list.begin()) : 0;
  };
  const auto& lists = listed();
  if (t.type == target::kind::syscall_entry)
    if (const auto id = position(lists.entries, std::string_view(t.info.function))) return id;
  next += static_cast<std::uint32_t>(lists.entries.size());
  if (t.type == target::kind::syscall_return)
    if (const auto id = position(lists.returns, std::string_view(t.info.function))) return id;
  next += static_cast<std::uint32_t>(lists.returns.size());
  if (t.type == target::kind::tracepoint && t.info.provider == "tracepoint")
    if (const auto id = position(lists.tracepoints, std::pair<std::string_view, std::string_view>(t.info.module, t.info.name)))
      return id;
  next += static_cast<std::uint32_t>(lists.tracepoints.size());
  for (const auto& s : stable_probes)
    if (t.type == target::kind::tracepoint && t.info.provider == s.provider && t.info.name == s.name)
      return next + static_cast<std::uint32_t>(&s - stable_probes);
  next += static_cast<std::uint32_t>(std::size(stable_probes));
  const auto place = t.info.provider + ":" + t.info.module + ":" + t.info.function + ":" + t.info.name + " " +
                     t.uprobe_path + "+" + std::to_string(t.uprobe_offset);
  return unlisted_.try_emplace(place, next + static_cast<std::uint32_t>(unlisted_.size())).first->second;
}

bool names_kernel_provider(const ir::probe& d) {
  // profile-N samples every CPU of the system, as DTrace's does: only the kernel can (in the
  // process it would sample dtpp alone). tick-N runs wherever the rest of the program does.
  if (d.name.rfind("profile-", 0) == 0 && !has_glob(d.name) && matches(d.provider, "profile") &&
      matches(d.module, "") && matches(d.function, ""))
    return true;
  // Every profile probe (`profile:::`, dtrace -P profile): the kernel lists them.
  if (!d.provider.empty() && matches(d.provider, "profile") && (d.name.empty() || has_glob(d.name))) return true;
  if (unserved(d)) return true;
  // Without a provider, a module or function names the kernel's probes too (`::read:entry`,
  // dtrace -f read, -m vmlinux), as every provider's in DTrace; a bare name (BEGIN, tick-1s)
  // stays with the rest of the program.
  if (d.provider.empty()) return !d.module.empty() || !d.function.empty();
  for (const char* provider : {"syscall", "tracepoint", "sched", "proc", "io", "fbt"})
    if (matches(d.provider, provider)) return true;
  return pid_provider(d.provider) || usdt_provider(d.provider) || any_process_usdt_provider(d.provider);
}

}  // namespace dtpp::kernel
