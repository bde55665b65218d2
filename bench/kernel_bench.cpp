// Tracing overhead on the live kernel, next to bpftrace, three ways in one run: a workload of
// system calls on CPU 1, untraced, under an empty BPF program (the floor), under dtpp's driver in
// this process, under the dtpp command and under bpftrace (each attached first, pinned to CPU 0,
// and each starting the workload itself with -c: call_ns, timed by the workload);
// for every traced variant the time inside its busiest BPF program (prog_ns, from the kernel's
// bpf_stats), and the count the tool printed for the workload's key (a wrong one voids the
// variant). Also launch-to-exit time and peak memory of `BEGIN { exit(0); }` (and of one reading
// curthread->pid), and attach time of a three-probe script. Run with --benchmark_repetitions and
// --benchmark_enable_random_interleaving (scripts/bench.sh does); overhead per event is a
// variant's median minus the untraced median. Needs root; bpftrace variants need bpftrace and
// skip, saying so, without it.
#include <benchmark/benchmark.h>
#include <bpf/bpf.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dtpp/d/check.hpp"
#include "dtpp/inproc/probe.hpp"
#include "dtpp/kernel/driver.hpp"
#include "../tests/kernel/endbr64_plus_one.hpp"
#include "../tests/kernel/nop5_plus_one.hpp"
#include "../tests/kernel/nop1_site.hpp"

namespace {

// The suite's smoke run (DTPP_BENCH_SMOKE set) proves that each variant runs and counts exactly,
// with a fiftieth of the calls: the figures come from full runs, and CI's minutes are few.
const bool smoke_run = std::getenv("DTPP_BENCH_SMOKE") != nullptr;
int calls(int full) { return smoke_run ? std::max(1, full / 50) : full; }

const int workload_calls = calls(1000000);

// ---- workloads ---------------------------------------------------------------------------------

void getppid_loop(benchmark::State& state) {
  for (auto _ : state) ::syscall(SYS_getppid);
}

void read_loop(benchmark::State& state) {
  const int zero = ::open("/dev/zero", O_RDONLY);
  char byte;
  for (auto _ : state) benchmark::DoNotOptimize(::read(zero, &byte, 1));
  ::close(zero);
}

// Wakeups: the workload thread and a partner (named dtpp-partner) hand a byte back and forth
// through two pipes, both on the workload's CPU, so that each wakes the other about once a call.
void wakeup_loop(benchmark::State& state) {
  int there[2], back[2];
  if (::pipe(there) != 0 || ::pipe(back) != 0) return state.SkipWithError("no pipes");
  std::thread partner([&] {
    ::prctl(PR_SET_NAME, "dtpp-partner");
    char byte;
    while (::read(there[0], &byte, 1) == 1 && byte != 0) (void)!::write(back[1], &byte, 1);
  });
  char byte = 1;
  for (auto _ : state) {
    (void)!::write(there[1], &byte, 1);
    (void)!::read(back[0], &byte, 1);
  }
  byte = 0;
  (void)!::write(there[1], &byte, 1);
  partner.join();
  for (const int f : {there[0], there[1], back[0], back[1]}) ::close(f);
}

// Successful execs: each call starts /bin/true through a symlink whose path (also its argv[0])
// names this process, so that the tracers' lines for the workload can be counted.
std::string exec_path() { return "/tmp/dtpp_bench_exec." + std::to_string(::getpid()); }

void exec_loop(benchmark::State& state) {
  const auto path = exec_path();
  ::unlink(path.c_str());
  if (::symlink("/bin/true", path.c_str()) != 0) return state.SkipWithError("cannot make the exec's symlink");
  char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
  for (auto _ : state) {
    pid_t child = 0;
    if (::posix_spawn(&child, path.c_str(), nullptr, nullptr, argv, environ) != 0) return state.SkipWithError("spawn failed");
    ::waitpid(child, nullptr, 0);
  }
  ::unlink(path.c_str());
}

// A pid probe's cost depends on the first instruction the uprobe replaces: `push %rbp` is
// emulated, the 5-byte nop of nop5_plus_one becomes a call into a trampoline after its first hit
// (Linux 6.18 and later), anything else traps and is single-stepped. One function of each kind, in
// assembly so that the compiler cannot change them; and endbr64_plus_one, whose entry probe dtpp
// places past its endbr64 (its offset probe :0 stays).
extern "C" long pid_push_rbp(long), pid_single_step(long);
asm(R"(
  .text
  .globl pid_push_rbp
  .type pid_push_rbp, @function
pid_push_rbp:
  push %rbp
  mov %rsp, %rbp
  lea 1(%rdi), %rax
  pop %rbp
  ret
  .size pid_push_rbp, .-pid_push_rbp
  .globl pid_single_step
  .type pid_single_step, @function
pid_single_step:
  lea 1(%rdi), %rax
  ret
  .size pid_single_step, .-pid_single_step
)");

template <long (*function)(long)>
void call_loop(benchmark::State& state) {
  long v = 0;
  for (auto _ : state) benchmark::DoNotOptimize(v = function(v));
}

// A DTPP_PROBE site (a 5-byte nop and its .note.stapsdt entry), reached from the kernel.
void probe_site_loop(benchmark::State& state) {
  long i = 0;
  for (auto _ : state) {
    DTPP_PROBE(benchsite, tick, i);
    benchmark::DoNotOptimize(++i);
  }
}

// The same with the site built with DTPP_PROBE_NOP1 (<sys/sdt.h>'s one-byte nop, which uprobes
// trap on).
void nop1_site_loop(benchmark::State& state) {
  long i = 0;
  for (auto _ : state) nop1_site(i++);
}

// ---- pinning and the programs' own run times ----------------------------------------------------

/// Pins the calling thread (and what it forks) to one CPU, when the machine has it.
void pin_to_cpu(int cpu) {
  if (cpu >= ::sysconf(_SC_NPROCESSORS_ONLN)) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  ::sched_setaffinity(0, sizeof set, &set);
}

/// The kernel's run-time statistics of BPF programs (kernel.bpf_stats_enabled, on while this object
/// lives through BPF_ENABLE_STATS): report() gives the time per run of the busiest program loaded
/// since it was made. The time inside the program does not depend on how loaded the machine is.
class program_run_times {
 public:
  program_run_times() : stats_(bpf_enable_stats(BPF_STATS_RUN_TIME)), before_(program_ids()) {}
  ~program_run_times() {
    if (stats_ >= 0) ::close(stats_);
  }
  program_run_times(const program_run_times&) = delete;
  program_run_times& operator=(const program_run_times&) = delete;

  void report(benchmark::State& state) const {
    __u64 runs = 0, nanoseconds = 0;
    for (const auto id : program_ids()) {
      if (before_.contains(id)) continue;
      const int fd = bpf_prog_get_fd_by_id(id);
      if (fd < 0) continue;
      bpf_prog_info info{};
      __u32 size = sizeof info;
      if (bpf_obj_get_info_by_fd(fd, &info, &size) == 0 && info.run_cnt > runs) {
        runs = info.run_cnt;
        nanoseconds = info.run_time_ns;
      }
      ::close(fd);
    }
    state.counters["prog_ns"] = runs > 0 ? static_cast<double>(nanoseconds) / static_cast<double>(runs) : 0;
    state.counters["prog_runs"] = static_cast<double>(runs);
  }

 private:
  static std::set<__u32> program_ids() {
    std::set<__u32> ids;
    for (__u32 id = 0; bpf_prog_get_next_id(id, &id) == 0;) ids.insert(id);
    return ids;
  }

  int stats_;
  std::set<__u32> before_;
};

// ---- tracers -----------------------------------------------------------------------------------

std::optional<std::string> kernel_refuses() { return dtpp::kernel::unavailable(); }

/// A BPF program that does nothing (r0 = 0; exit) on a syscalls tracepoint: the floor.
class empty_program {
 public:
  explicit empty_program(const std::string& event) {
    const bpf_insn code[] = {{BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0}, {BPF_JMP | BPF_EXIT, 0, 0, 0, 0}};
    program_ = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, "floor", "GPL", code, 2, nullptr);
    std::ifstream id_file("/sys/kernel/tracing/events/syscalls/" + event + "/id");
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_TRACEPOINT;
    id_file >> attr.config;
    attr.sample_period = 1;
    event_ = static_cast<int>(::syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC));
    ok_ = program_ >= 0 && event_ >= 0 && ::ioctl(event_, PERF_EVENT_IOC_SET_BPF, program_) == 0 &&
          ::ioctl(event_, PERF_EVENT_IOC_ENABLE, 0) == 0;
  }
  ~empty_program() {
    if (event_ >= 0) ::close(event_);
    if (program_ >= 0) ::close(program_);
  }
  bool ok() const { return ok_; }

 private:
  int program_ = -1, event_ = -1;
  bool ok_ = false;
};

/// dtpp's kernel driver, attached for the lifetime of this object.
std::unique_ptr<dtpp::kernel::driver> dtpp_tracing(const std::string& text, std::string& error,
                                                   dtpp::kernel::driver_options options = {}) {
  const auto compiled = dtpp::d::compile(dtpp::d::source_file("bench.d", text));
  if (!compiled.errors.empty()) {
    error = "the D program did not compile";
    return nullptr;
  }
  try {
    auto k = std::make_unique<dtpp::kernel::driver>(compiled.program, options);
    k->go();
    return k;
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}

/// A tracer command (bpftrace, or dtpp) pinned to CPU 0, attached once its BEGIN clause has
/// printed "ready"; finish() stops it and returns what it printed (its aggregations).
class tracer_process {
 public:
  explicit tracer_process(std::vector<std::string> command, bool wait_until_ready = true) {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      pin_to_cpu(0);
      ::dup2(out[1], 1);
      ::close(out[0]);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 2);
      std::vector<char*> argv;
      for (auto& a : command) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execvp(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    output_ = out[0];
    if (!wait_until_ready) return;
    // bpftrace prints "Attaching N probes..." before the probes are attached: wait for BEGIN's line.
    while (seen_.find("ready\n") == std::string::npos && read_some(20000)) {}
    ready_ = seen_.find("ready\n") != std::string::npos;
  }
  ~tracer_process() { finish(); }
  tracer_process(const tracer_process&) = delete;
  tracer_process& operator=(const tracer_process&) = delete;
  bool ready() const { return ready_; }

  // Waits for the command to end by itself (a -c run), then collects it.
  const std::string& finish_waiting() {
    while (read_some(60000)) {}
    return finish();
  }

  // bpftrace may miss a SIGINT that comes right after its BEGIN (and stay attached to the next
  // variants' system calls): ask again until it is gone, then kill it.
  const std::string& finish() {
    if (pid_ <= 0) return seen_;
    for (int tries = 0; tries < 50; ++tries) {
      ::kill(pid_, SIGINT);
      while (read_some(100)) {}
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
    }
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    ::close(output_);
    output_ = -1;
    return seen_;
  }

 private:
  bool read_some(int timeout_ms) {
    pollfd p{output_, POLLIN, 0};
    if (output_ < 0 || ::poll(&p, 1, timeout_ms) != 1) return false;
    char buffer[4096];
    const auto n = ::read(output_, buffer, sizeof buffer);
    if (n <= 0) return false;
    seen_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int output_ = -1;
  bool ready_ = false;
  std::string seen_;
};

std::vector<std::string> dtpp_command(const std::string& script) {
  return {DTPP_COMMAND, "-q", "-n", "BEGIN { printf(\"ready\\n\"); } " + script};
}
std::vector<std::string> bpftrace_command(const std::string& script) {
  return {"bpftrace", "-e", "BEGIN { printf(\"ready\\n\"); } " + script};
}

// The pid provider on this process's own function, next to bpftrace's uprobe on it.
std::string self_path() {
  char path[4096] = {};
  const auto n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

void pid_under_dtpp(benchmark::State& state, void (*work)(benchmark::State&), const char* function,
                    const char* name = "entry") {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  std::string error;
  auto k = dtpp_tracing("pid" + std::to_string(::getpid()) + ":a.out:" + function + ":" + name + " { @ = count(); }", error);
  if (!k) return state.SkipWithError(error.c_str());
  work(state);
  k->stop();
}

void pid_under_bpftrace(benchmark::State& state, void (*work)(benchmark::State&), const char* function) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  tracer_process b(bpftrace_command("uprobe:" + self_path() + ":" + function + " { @ = count(); }"));
  if (!b.ready()) return state.SkipWithError("bpftrace is not installed or did not start");
  work(state);
}

// A DTPP_PROBE site from the kernel (PROVIDERPID:::tick), next to bpftrace's usdt: probe on it.
void site_under_dtpp(benchmark::State& state, void (*work)(benchmark::State&), const char* provider) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  std::string error;
  auto k = dtpp_tracing(provider + std::to_string(::getpid()) + ":::tick { @[probename] = count(); }", error);
  if (!k) return state.SkipWithError(error.c_str());
  work(state);
  k->stop();
}

void site_under_bpftrace(benchmark::State& state, void (*work)(benchmark::State&), const char* provider) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  tracer_process b(bpftrace_command("usdt:" + self_path() + ":" + provider + ":tick { @[probe] = count(); }"));
  if (!b.ready()) return state.SkipWithError("bpftrace is not installed or did not start");
  work(state);
}

// ---- the runs ----------------------------------------------------------------------------------

/// Whose count a script's aggregation holds for the workload's thread: none (the script counts
/// other things too), its thread id, or its command name.
enum class counted_key : std::uint8_t { none, thread, command, exec_lines };

struct script {
  const char* dtpp;
  const char* bpftrace;
  counted_key key = counted_key::none;
};

constexpr script count_comm = {"syscall::getppid:entry { @[execname] = count(); }",
                               "tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }", counted_key::command};
constexpr script count_tid = {"syscall::getppid:entry { @[tid] = count(); }",
                              "tracepoint:syscalls:sys_enter_getppid { @[tid] = count(); }", counted_key::thread};
// 30 get* calls: one raw_syscalls program serves them (docs/kernel.md).
constexpr script count_tid_raw = {"syscall::get*:entry { @[tid] = count(); }", nullptr, counted_key::thread};
// The same while the workload makes other calls: it counts none of them.
constexpr script count_tid_raw_elsewhere = {count_tid_raw.dtpp, nullptr, counted_key::none};
constexpr script latency = {
    "syscall::read:entry { self->ts = timestamp; }"
    " syscall::read:return /self->ts/ { @h = quantize(timestamp - self->ts); @a = avg(timestamp - self->ts);"
    " @c = count(); self->ts = 0; }",
    "tracepoint:syscalls:sys_enter_read { @ts[tid] = nsecs; }"
    " tracepoint:syscalls:sys_exit_read /@ts[tid]/ { @h = hist(nsecs - @ts[tid]); @s = stats(nsecs - @ts[tid]);"
    " delete(@ts[tid]); }"};
// vtimestamp's cost (docs/performance.md): per event, a read's on-CPU time next to its wall time
// above; per context switch, the sched_switch program any script reading vtimestamp attaches
// (here one whose own probe never fires during the workload, so that the busiest program is it).
constexpr script vtime_sum = {"syscall::read:entry { self->v = vtimestamp; }"
                              " syscall::read:return /self->v/ { @ = sum(vtimestamp - self->v); self->v = 0; }",
                              nullptr};
constexpr script time_sum = {"syscall::read:entry { self->t = timestamp; }"
                             " syscall::read:return /self->t/ { @ = sum(timestamp - self->t); self->t = 0; }",
                             nullptr};
constexpr script vtime_kept = {"syscall::getppid:entry { @ = sum(vtimestamp); }", nullptr};

// DTrace's stable providers (issue #12) next to the tracepoints bpftrace names.
constexpr script wakeup_count_comm = {"sched:::wakeup { @[execname] = count(); }",
                                      "tracepoint:sched:sched_wakeup { @[comm] = count(); }"};
constexpr script exec_psargs = {"proc:::exec-success { trace(curpsinfo->pr_psargs); }",
                                "tracepoint:sched:sched_process_exec { printf(\"%s\\n\", str(args->filename)); }",
                                counted_key::exec_lines};

/// The workload's key in a script's aggregation, as both tools print it.
std::string key_text(counted_key key) {
  if (key == counted_key::thread) return std::to_string(::gettid());
  char name[17] = {};
  ::prctl(PR_GET_NAME, name);
  return name;
}

/// The count a tool printed for `key`: bpftrace's `@[KEY]: N`, dtrace's `  KEY   N`.
std::optional<std::uint64_t> printed_count(const std::string& output, const std::string& key) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first, second, more;
    if (!(words >> first >> second) || (words >> more)) continue;
    if ((first == "@[" + key + "]:" || first == key) && second.find_first_not_of("0123456789") == std::string::npos)
      return std::stoull(second);
  }
  return std::nullopt;
}

/// The count the in-process driver holds for `key` in its first aggregation.
std::optional<std::uint64_t> driver_count(dtpp::kernel::driver& k, const std::string& key) {
  const auto snapshot = k.aggregation(1).snapshot();
  for (std::size_t row = 0; row < snapshot.size(); ++row) {
    const auto& record = snapshot.key(row).records.at(0);
    const auto text = record.type.kind == dtpp::agg::key_type::category::string ? record.string
                                                                                 : std::to_string(record.integer);
    if (text == key) return snapshot.words(row)[0];
  }
  return std::nullopt;
}

/// How many times a tool printed the workload's exec path.
std::uint64_t printed_execs(const std::string& output) {
  std::uint64_t n = 0;
  const auto path = exec_path();
  for (auto at = output.find(path); at != std::string::npos; at = output.find(path, at + 1)) ++n;
  return n;
}

/// A count variant whose tool counted other than one per workload call for the workload's key
/// is void.
void check_count(benchmark::State& state, const std::string& key, std::optional<std::uint64_t> counted,
                 std::uint64_t calls) {
  if (counted != calls)
    state.SkipWithError(("void: the tool counted " + (counted ? std::to_string(*counted) : std::string("nothing")) +
                         " for " + key + ", not " + std::to_string(calls))
                            .c_str());
}

// Every traced variant runs the workload on CPU 1, with the tracer's process (if any) on CPU 0.
void untraced(benchmark::State& state, void (*work)(benchmark::State&)) {
  pin_to_cpu(1);
  work(state);
}

void empty_bpf(benchmark::State& state, void (*work)(benchmark::State&), const char* event) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  pin_to_cpu(1);
  program_run_times times;
  empty_program p(event);
  if (!p.ok()) return state.SkipWithError("could not attach the empty program");
  work(state);
  times.report(state);
}

// dtpp's kernel driver in this process.
void driver_run(benchmark::State& state, void (*work)(benchmark::State&), script s, dtpp::kernel::driver_options options) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  pin_to_cpu(1);
  program_run_times times;
  std::string error;
  auto k = dtpp_tracing(s.dtpp, error, options);
  if (!k) return state.SkipWithError(error.c_str());
  work(state);
  times.report(state);
  k->stop();
  if (s.key == counted_key::none) return;
  const auto key = key_text(s.key);
  check_count(state, key, driver_count(*k, key), state.iterations());
}

void under_dtpp(benchmark::State& state, void (*work)(benchmark::State&), script s) {
  driver_run(state, work, s, {});
}

// The same without the aggregation's front cache: an aggsize too small to spare it any bytes
// (docs/performance.md compares the two in one run).
void under_dtpp_map_only(benchmark::State& state, void (*work)(benchmark::State&), script s) {
  driver_run(state, work, s, {.aggsize = 1024});
}

// A command (dtpp's or bpftrace) attached before the workload starts.
void attached_first(benchmark::State& state, void (*work)(benchmark::State&), std::vector<std::string> command,
                    counted_key key) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  pin_to_cpu(1);
  program_run_times times;
  const auto name = command[0];
  tracer_process tracer(std::move(command));
  if (!tracer.ready()) return state.SkipWithError((name + " is not installed or did not start").c_str());
  work(state);
  times.report(state);
  if (key == counted_key::none) return;
  if (key == counted_key::exec_lines)
    return check_count(state, exec_path(), printed_execs(tracer.finish()), state.iterations());
  check_count(state, key_text(key), printed_count(tracer.finish(), key_text(key)), state.iterations());
}

void under_dtpp_command(benchmark::State& state, void (*work)(benchmark::State&), script s) {
  attached_first(state, work, dtpp_command(s.dtpp), s.key);
}
void under_bpftrace(benchmark::State& state, void (*work)(benchmark::State&), script s) {
  attached_first(state, work, bpftrace_command(s.bpftrace), s.key);
}

// `-c` runs: the command starts the workload itself, this binary again, which sees
// DTPP_BENCH_CALLS=N in its environment, makes N getppid calls on CPU 1, writes its thread id and
// the CPU time of its calls to the file DTPP_BENCH_RESULT names, and exits before any benchmark.
long thread_cpu_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

const bool ran_as_workload = [] {
  const char* calls = std::getenv("DTPP_BENCH_CALLS");
  if (!calls) return false;
  pin_to_cpu(1);
  const auto start = thread_cpu_ns();
  for (long i = 0, n = std::atol(calls); i < n; ++i) ::syscall(SYS_getppid);
  const auto took = thread_cpu_ns() - start;
  std::ofstream(std::getenv("DTPP_BENCH_RESULT")) << ::gettid() << ' ' << took << '\n';
  std::_Exit(0);
}();

/// Runs a command (pinned to CPU 0) to its end; what it printed.
std::string run_to_end(std::vector<std::string> command) {
  tracer_process started(std::move(command), false);
  return started.finish_waiting();
}

// CPU time per workload call (call_ns) and the count checked. The workload times its own calls,
// so the tracer's start and end are not in the figure and fewer calls do.
const int c_calls = calls(200000);

void with_c(benchmark::State& state, script s, bool bpftrace) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  const std::string result = "/tmp/dtpp_kernel_bench." + std::to_string(::getpid());
  ::setenv("DTPP_BENCH_CALLS", std::to_string(c_calls).c_str(), 1);
  ::setenv("DTPP_BENCH_RESULT", result.c_str(), 1);
  std::string output;
  for (auto _ : state)
    output = run_to_end(bpftrace ? std::vector<std::string>{"bpftrace", "-e", s.bpftrace, "-c", self_path()}
                                 : std::vector<std::string>{DTPP_COMMAND, "-q", "-n", s.dtpp, "-c", self_path()});
  ::unsetenv("DTPP_BENCH_CALLS");
  long tid = 0, took = 0;
  std::ifstream(result) >> tid >> took;
  ::unlink(result.c_str());
  if (took <= 0) return state.SkipWithError(bpftrace ? "bpftrace is not installed or did not run" : "dtpp did not run");
  state.counters["call_ns"] = static_cast<double>(took) / c_calls;
  const auto key = s.key == counted_key::thread ? std::to_string(tid) : key_text(s.key);
  check_count(state, key, printed_count(output, key), c_calls);
}

void dtpp_with_c(benchmark::State& state, script s) { with_c(state, s, false); }
void bpftrace_with_c(benchmark::State& state, script s) { with_c(state, s, true); }
BENCHMARK_CAPTURE(dtpp_with_c, getppid_count_execname, count_comm)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bpftrace_with_c, getppid_count_comm, count_comm)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(dtpp_with_c, getppid_count_tid, count_tid)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bpftrace_with_c, getppid_count_tid, count_tid)->Iterations(1)->Unit(benchmark::kMillisecond);

#define WORKLOAD_BENCHMARK(name, ...) \
  BENCHMARK_CAPTURE(name, __VA_ARGS__)->Iterations(workload_calls)->Unit(benchmark::kNanosecond)

WORKLOAD_BENCHMARK(untraced, getppid, getppid_loop);
WORKLOAD_BENCHMARK(empty_bpf, getppid_empty_program, getppid_loop, "sys_enter_getppid");
WORKLOAD_BENCHMARK(under_dtpp, getppid_count_execname, getppid_loop, count_comm);
WORKLOAD_BENCHMARK(under_dtpp_map_only, getppid_count_execname, getppid_loop, count_comm);
WORKLOAD_BENCHMARK(under_dtpp_command, getppid_count_execname, getppid_loop, count_comm);
WORKLOAD_BENCHMARK(under_bpftrace, getppid_count_comm, getppid_loop, count_comm);
WORKLOAD_BENCHMARK(under_dtpp, getppid_count_tid, getppid_loop, count_tid);
WORKLOAD_BENCHMARK(under_dtpp_map_only, getppid_count_tid, getppid_loop, count_tid);
WORKLOAD_BENCHMARK(under_dtpp_command, getppid_count_tid, getppid_loop, count_tid);
WORKLOAD_BENCHMARK(under_bpftrace, getppid_count_tid, getppid_loop, count_tid);
WORKLOAD_BENCHMARK(under_dtpp, getppid_count_tid_on_raw_syscalls, getppid_loop, count_tid_raw);
WORKLOAD_BENCHMARK(untraced, read, read_loop);
WORKLOAD_BENCHMARK(under_dtpp, read_while_raw_syscalls_serves_others, read_loop, count_tid_raw_elsewhere);
WORKLOAD_BENCHMARK(under_dtpp, read_latency, read_loop, latency);
WORKLOAD_BENCHMARK(under_dtpp_command, read_latency, read_loop, latency);
WORKLOAD_BENCHMARK(under_bpftrace, read_latency, read_loop, latency);
WORKLOAD_BENCHMARK(under_dtpp, read_timestamp_sum, read_loop, time_sum);
WORKLOAD_BENCHMARK(under_dtpp, read_vtimestamp_sum, read_loop, vtime_sum);
WORKLOAD_BENCHMARK(untraced, wakeup, wakeup_loop);
WORKLOAD_BENCHMARK(under_dtpp, wakeup_vtimestamp_switch_program, wakeup_loop, vtime_kept);
WORKLOAD_BENCHMARK(under_dtpp_command, wakeup_count_execname, wakeup_loop, wakeup_count_comm);
WORKLOAD_BENCHMARK(under_bpftrace, wakeup_count_comm, wakeup_loop, wakeup_count_comm);

// An exec costs milliseconds on this VM: fewer of them.
const int exec_calls = calls(500);
BENCHMARK_CAPTURE(untraced, exec, exec_loop)->Iterations(exec_calls)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(under_dtpp_command, exec_success_psargs, exec_loop, exec_psargs)
    ->Iterations(exec_calls)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(under_bpftrace, exec_filename, exec_loop, exec_psargs)->Iterations(exec_calls)->Unit(benchmark::kMicrosecond);

// A uprobe that traps costs microseconds: fewer calls, or the smoke run would take minutes.
const int pid_calls = calls(5000);
#define PID_BENCHMARK(name, ...) \
  BENCHMARK_CAPTURE(name, __VA_ARGS__)->Iterations(pid_calls)->Unit(benchmark::kNanosecond)
PID_BENCHMARK(untraced, pid_call, call_loop<pid_push_rbp>);
PID_BENCHMARK(pid_under_dtpp, push_rbp_entry_count, call_loop<pid_push_rbp>, "pid_push_rbp");
PID_BENCHMARK(pid_under_bpftrace, push_rbp_entry_count, call_loop<pid_push_rbp>, "pid_push_rbp");
PID_BENCHMARK(pid_under_dtpp, nop5_entry_count, call_loop<nop5_plus_one>, "nop5_plus_one");
PID_BENCHMARK(pid_under_bpftrace, nop5_entry_count, call_loop<nop5_plus_one>, "nop5_plus_one");
PID_BENCHMARK(pid_under_dtpp, single_step_entry_count, call_loop<pid_single_step>, "pid_single_step");
PID_BENCHMARK(pid_under_bpftrace, single_step_entry_count, call_loop<pid_single_step>, "pid_single_step");
PID_BENCHMARK(pid_under_dtpp, endbr64_entry_count, call_loop<endbr64_plus_one>, "endbr64_plus_one");
PID_BENCHMARK(pid_under_dtpp, endbr64_offset_0_count, call_loop<endbr64_plus_one>, "endbr64_plus_one", "0");
PID_BENCHMARK(pid_under_bpftrace, endbr64_entry_count, call_loop<endbr64_plus_one>, "endbr64_plus_one");
PID_BENCHMARK(untraced, probe_site, probe_site_loop);
PID_BENCHMARK(site_under_dtpp, nop5, probe_site_loop, "benchsite");
PID_BENCHMARK(site_under_bpftrace, nop5, probe_site_loop, "benchsite");
PID_BENCHMARK(untraced, nop1_probe_site, nop1_site_loop);
PID_BENCHMARK(site_under_dtpp, nop1, nop1_site_loop, "nopone");
PID_BENCHMARK(site_under_bpftrace, nop1, nop1_site_loop, "nopone");

// Launch to exit of `BEGIN { exit(0); }` as a user runs it; the peak resident memory as a counter.
void launch_to_exit(benchmark::State& state, std::vector<std::string> command) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  long peak_kb = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      ::dup2(null, 2);
      std::vector<char*> argv;
      for (auto& a : command) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execvp(argv[0], argv.data());
      ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return state.SkipWithError("the command failed (not installed?)");
    peak_kb = std::max(peak_kb, usage.ru_maxrss);
  }
  state.counters["peak_MB"] = static_cast<double>(peak_kb) / 1024;
}
BENCHMARK_CAPTURE(launch_to_exit, dtpp, {DTPP_COMMAND, "-q", "-xengine=kernel", "-n", "BEGIN { exit(0); }"})
    ->UseManualTime()->Iterations(calls(20))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(launch_to_exit, bpftrace, {"bpftrace", "-e", "BEGIN { exit(); }"})
    ->UseManualTime()->Iterations(calls(5))->Unit(benchmark::kMillisecond);
// The same with the kernel's types: vmlinux BTF parsed to type curthread->pid.
BENCHMARK_CAPTURE(launch_to_exit, dtpp_kernel_types, {DTPP_COMMAND, "-q", "-n", "BEGIN { trace(curthread->pid); exit(0); }"})
    ->UseManualTime()->Iterations(calls(20))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(launch_to_exit, bpftrace_kernel_types, {"bpftrace", "-e", "BEGIN { printf(\"%d\", curtask->pid); exit(); }"})
    ->UseManualTime()->Iterations(calls(5))->Unit(benchmark::kMillisecond);
// Launch to the first event and exit of a script that needs BTF and D's library (curpsinfo's
// translator): a wakeup comes within microseconds of attaching on any running system.
BENCHMARK_CAPTURE(launch_to_exit, dtpp_first_wakeup_psinfo,
                  {DTPP_COMMAND, "-q", "-n", "sched:::wakeup { trace(curpsinfo->pr_psargs); exit(0); }"})
    ->UseManualTime()->Iterations(calls(20))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(launch_to_exit, bpftrace_first_wakeup_task,
                  {"bpftrace", "-e", "tracepoint:sched:sched_wakeup { printf(\"%s\\n\", curtask->comm); exit(); }"})
    ->UseManualTime()->Iterations(calls(5))->Unit(benchmark::kMillisecond);

// From a checked program to its three probes attached (compile, maps, verifier, attach).
void attach_three_probes(benchmark::State& state) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  const auto compiled = dtpp::d::compile(dtpp::d::source_file(
      "bench.d", "syscall::getppid:entry, syscall::read:entry, syscall::write:entry { @[probefunc] = count(); }"));
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    dtpp::kernel::driver k(compiled.program);
    k.go();
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    k.stop();  // detaching (RCU grace periods) is not attaching: outside the timing
  }
}
BENCHMARK(attach_three_probes)->UseManualTime()->Iterations(calls(10))->Unit(benchmark::kMillisecond);

}  // namespace
