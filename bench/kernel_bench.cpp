// End-to-end tracing overhead on the live kernel, next to bpftrace: a workload of system calls run
// untraced, under an empty BPF program (the floor), under dtpp and under bpftrace with the same
// script; launch-to-exit time and peak memory of `BEGIN { exit(0); }` (and of one reading
// curthread->pid); attach time of a three-probe script. Run with --benchmark_repetitions and
// --benchmark_enable_random_interleaving (scripts/bench.sh does) so that the variants interleave; overhead per event is a variant's
// median minus the untraced median. Needs root; bpftrace variants need bpftrace.
#include <benchmark/benchmark.h>
#include <bpf/bpf.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dtpp/d/check.hpp"
#include "dtpp/kernel/driver.hpp"

namespace {

constexpr int workload_calls = 1000000;

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

// A pid probe's cost depends on the first instruction the uprobe replaces: `push %rbp` is
// emulated, a 5-byte nop may become a call (Linux 6.18 and later), anything else traps and is
// single-stepped. One function of each kind, in assembly so that the compiler cannot change them.
extern "C" long pid_push_rbp(long), pid_nop5(long), pid_single_step(long);
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
  .globl pid_nop5
  .type pid_nop5, @function
pid_nop5:
  nopl 0(%rax, %rax, 1)
  lea 1(%rdi), %rax
  ret
  .size pid_nop5, .-pid_nop5
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
std::unique_ptr<dtpp::kernel::driver> dtpp_tracing(const std::string& text, std::string& error) {
  const auto compiled = dtpp::d::compile(dtpp::d::source_file("bench.d", text));
  if (!compiled.errors.empty()) {
    error = "the D program did not compile";
    return nullptr;
  }
  try {
    auto k = std::make_unique<dtpp::kernel::driver>(compiled.program);
    k->go();
    return k;
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}

/// bpftrace running a script, attached once its BEGIN probe has printed.
class bpftrace {
 public:
  explicit bpftrace(const std::string& script) {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      ::close(out[0]);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 2);
      ::execlp("bpftrace", "bpftrace", "-e", ("BEGIN { printf(\"ready\\n\"); } " + script).c_str(), nullptr);
      ::_exit(127);
    }
    ::close(out[1]);
    // "Attaching N probes..." comes first, before the probes are attached: wait for BEGIN's line.
    pollfd p{out[0], POLLIN, 0};
    std::string seen;
    char buffer[256];
    while (seen.find("ready\n") == std::string::npos && ::poll(&p, 1, 20000) == 1) {
      const auto n = ::read(out[0], buffer, sizeof buffer);
      if (n <= 0) break;
      seen.append(buffer, static_cast<std::size_t>(n));
    }
    ready_ = seen.find("ready\n") != std::string::npos;
    output_ = out[0];
  }
  // bpftrace may miss a SIGINT that comes right after its BEGIN (and stay attached to the next
  // variants' system calls): ask again until it is gone, then kill it.
  ~bpftrace() {
    if (output_ >= 0) ::close(output_);
    if (pid_ <= 0) return;
    for (int tries = 0; tries < 50; ++tries) {
      ::kill(pid_, SIGINT);
      ::usleep(100000);
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  bool ready() const { return ready_; }

 private:
  pid_t pid_ = -1;
  int output_ = -1;
  bool ready_ = false;
};

// The pid provider on this process's own function, next to bpftrace's uprobe on it.
std::string self_path() {
  char path[4096] = {};
  const auto n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

void pid_under_dtpp(benchmark::State& state, void (*work)(benchmark::State&), const char* function) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  std::string error;
  auto k = dtpp_tracing("pid" + std::to_string(::getpid()) + ":a.out:" + function + ":entry { @ = count(); }", error);
  if (!k) return state.SkipWithError(error.c_str());
  work(state);
  k->stop();
}

void pid_under_bpftrace(benchmark::State& state, void (*work)(benchmark::State&), const char* function) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  bpftrace b("uprobe:" + self_path() + ":" + function + " { @ = count(); }");
  if (!b.ready()) return state.SkipWithError("bpftrace is not installed or did not start");
  work(state);
}

// ---- the runs ----------------------------------------------------------------------------------

struct script {
  const char* dtpp;
  const char* bpftrace;
};

constexpr script count_comm = {"syscall::getppid:entry { @[execname] = count(); }",
                               "tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }"};
constexpr script count_tid = {"syscall::getppid:entry { @[tid] = count(); }",
                              "tracepoint:syscalls:sys_enter_getppid { @[tid] = count(); }"};
// 30 get* calls: one raw_syscalls program serves them (docs/kernel.md).
constexpr script count_tid_raw = {"syscall::get*:entry { @[tid] = count(); }", nullptr};
constexpr script latency = {
    "syscall::read:entry { self->ts = timestamp; }"
    " syscall::read:return /self->ts/ { @h = quantize(timestamp - self->ts); @a = avg(timestamp - self->ts);"
    " @c = count(); self->ts = 0; }",
    "tracepoint:syscalls:sys_enter_read { @ts[tid] = nsecs; }"
    " tracepoint:syscalls:sys_exit_read /@ts[tid]/ { @h = hist(nsecs - @ts[tid]); @s = stats(nsecs - @ts[tid]);"
    " delete(@ts[tid]); }"};

void untraced(benchmark::State& state, void (*work)(benchmark::State&)) { work(state); }

void empty_bpf(benchmark::State& state, void (*work)(benchmark::State&), const char* event) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  empty_program p(event);
  if (!p.ok()) return state.SkipWithError("could not attach the empty program");
  work(state);
}

void under_dtpp(benchmark::State& state, void (*work)(benchmark::State&), script s) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  std::string error;
  auto k = dtpp_tracing(s.dtpp, error);
  if (!k) return state.SkipWithError(error.c_str());
  work(state);
  k->stop();
}

void under_bpftrace(benchmark::State& state, void (*work)(benchmark::State&), script s) {
  if (const auto why = kernel_refuses()) return state.SkipWithError(why->c_str());
  bpftrace b(s.bpftrace);
  if (!b.ready()) return state.SkipWithError("bpftrace is not installed or did not start");
  work(state);
}

#define WORKLOAD_BENCHMARK(name, ...) \
  BENCHMARK_CAPTURE(name, __VA_ARGS__)->Iterations(workload_calls)->Unit(benchmark::kNanosecond)

WORKLOAD_BENCHMARK(untraced, getppid, getppid_loop);
WORKLOAD_BENCHMARK(empty_bpf, getppid_empty_program, getppid_loop, "sys_enter_getppid");
WORKLOAD_BENCHMARK(under_dtpp, getppid_count_execname, getppid_loop, count_comm);
WORKLOAD_BENCHMARK(under_bpftrace, getppid_count_comm, getppid_loop, count_comm);
WORKLOAD_BENCHMARK(under_dtpp, getppid_count_tid, getppid_loop, count_tid);
WORKLOAD_BENCHMARK(under_bpftrace, getppid_count_tid, getppid_loop, count_tid);
WORKLOAD_BENCHMARK(under_dtpp, getppid_count_tid_on_raw_syscalls, getppid_loop, count_tid_raw);
WORKLOAD_BENCHMARK(untraced, read, read_loop);
WORKLOAD_BENCHMARK(under_dtpp, read_while_raw_syscalls_serves_others, read_loop, count_tid_raw);
WORKLOAD_BENCHMARK(under_dtpp, read_latency, read_loop, latency);
WORKLOAD_BENCHMARK(under_bpftrace, read_latency, read_loop, latency);

// A uprobe that traps costs microseconds: fewer calls, or the smoke run would take minutes.
constexpr int pid_calls = 5000;
#define PID_BENCHMARK(name, ...) \
  BENCHMARK_CAPTURE(name, __VA_ARGS__)->Iterations(pid_calls)->Unit(benchmark::kNanosecond)
PID_BENCHMARK(untraced, pid_call, call_loop<pid_push_rbp>);
PID_BENCHMARK(pid_under_dtpp, push_rbp_entry_count, call_loop<pid_push_rbp>, "pid_push_rbp");
PID_BENCHMARK(pid_under_bpftrace, push_rbp_entry_count, call_loop<pid_push_rbp>, "pid_push_rbp");
PID_BENCHMARK(pid_under_dtpp, nop5_entry_count, call_loop<pid_nop5>, "pid_nop5");
PID_BENCHMARK(pid_under_bpftrace, nop5_entry_count, call_loop<pid_nop5>, "pid_nop5");
PID_BENCHMARK(pid_under_dtpp, single_step_entry_count, call_loop<pid_single_step>, "pid_single_step");
PID_BENCHMARK(pid_under_bpftrace, single_step_entry_count, call_loop<pid_single_step>, "pid_single_step");

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
    ->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(launch_to_exit, bpftrace, {"bpftrace", "-e", "BEGIN { exit(); }"})
    ->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);
// The same with the kernel's types: vmlinux BTF parsed to type curthread->pid.
BENCHMARK_CAPTURE(launch_to_exit, dtpp_kernel_types, {DTPP_COMMAND, "-q", "-n", "BEGIN { trace(curthread->pid); exit(0); }"})
    ->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(launch_to_exit, bpftrace_kernel_types, {"bpftrace", "-e", "BEGIN { printf(\"%d\", curtask->pid); exit(); }"})
    ->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);

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
BENCHMARK(attach_three_probes)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);

}  // namespace
