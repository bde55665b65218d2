// The pid provider's test program: functions of each C++ kind with known call counts, arguments
// and return values. `dtpp_pid_target N` calls shapes::square::area() N times (returning i*i),
// doubled<int>() 2N times (returning 2i), endbr64_plus_one() N times (returning i + 1) and
// sum_of_eight() once (1..8, returning 36); its USDT
// site pidtest:::step fires N times with (i, -i, 7), and pidtest:::guarded N times with (i) when
// its semaphore says it is traced (it never fires otherwise).
// `dtpp_pid_target N plugin` then opens libdtpp_pid_plugin.so (beside the executable) with
// dlopen(), calls its plugin_square() N times (0 .. N-1), closes it, opens it again and calls
// plugin_square(N) once: with its constructor's call of plugin_square(10) at each load, N + 3
// calls returning 200 plus the squares of 0 .. N. With "wait-then-plugin" instead, it reads a
// byte from its standard input first (so that a tracer can grab it with -p before it loads).
// With "wait-for-tracer", it waits until pidtest:::guarded is traced before it starts (for a
// tracer that finds it only once it runs).
// `dtpp_pid_target N nop5` only calls nop5_plus_one() N times (returning i + 1), then prints
// whether the process has a [uprobes-trampoline] mapping (a uprobe on its nop became a call).

// Sites with semaphores, as dtrace -h headers make them: every site of this file then has one.
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

extern "C" {
[[gnu::section(".probes")]] volatile unsigned short pidtest_step_semaphore;
[[gnu::section(".probes")]] volatile unsigned short pidtest_guarded_semaphore;
}

#include "endbr64_plus_one.hpp"
#include "nop5_plus_one.hpp"
#include "uprobes_trampoline.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

namespace shapes {

class square {
 public:
  explicit square(long side) : side_(side) {}
  long area() const;

 private:
  long side_;
};

__attribute__((noipa)) long square::area() const { return side_ * side_; }

}  // namespace shapes

template <typename T>
__attribute__((noipa)) T doubled(T v) {
  return v + v;
}

// Two arguments past the six registers, read from the stack.
__attribute__((noipa)) long sum_of_eight(long a, long b, long c, long d, long e, long f, long g, long h) {
  return a + b + c + d + e + f + g + h;
}

// Opens the plugin beside this executable, calls its plugin_square() on from .. to - 1, closes it.
long call_plugin(long from, long to) {
  char self[4096] = {};
  const auto size = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::string path(self, size > 0 ? static_cast<std::size_t>(size) : 0);
  path = path.substr(0, path.rfind('/') + 1) + "libdtpp_pid_plugin.so";
  void* plugin = ::dlopen(path.c_str(), RTLD_NOW);
  if (!plugin) std::abort();
  const auto square = reinterpret_cast<long (*)(long)>(::dlsym(plugin, "plugin_square"));
  long sum = 0;
  for (long v = from; v < to; ++v) sum += square(v);
  ::dlclose(plugin);
  return sum;
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 3;
  if (argc > 2 && std::strcmp(argv[2], "nop5") == 0) {
    volatile long sink = 0;
    for (long i = 0; i < n; ++i) sink = sink + nop5_plus_one(i);
    std::cout << "uprobes trampoline: " << (has_uprobes_trampoline() ? "mapped" : "none") << '\n';
    return 0;
  }
  if (argc > 2 && std::strcmp(argv[2], "wait-for-tracer") == 0) {
    // Until a tracer has placed pidtest:::guarded (the kernel counts its semaphore up), for up to
    // two seconds; then 20 ms more for the tracer's program to be linked to the probe.
    for (int tries = 0; tries < 2000 && !pidtest_guarded_semaphore; ++tries) ::usleep(1000);
    ::usleep(20000);
  }
  volatile long sink = 0;
  for (long i = 0; i < n; ++i) {
    sink = sink + shapes::square(i).area() + endbr64_plus_one(i);
    STAP_PROBE3(pidtest, step, i, -i, 7);
    if (pidtest_guarded_semaphore) STAP_PROBE1(pidtest, guarded, i);
  }
  for (long i = 0; i < 2 * n; ++i) sink = sink + doubled<int>(static_cast<int>(i));
  sink = sink + sum_of_eight(1, 2, 3, 4, 5, 6, 7, 8);
  const bool wait = argc > 2 && std::strcmp(argv[2], "wait-then-plugin") == 0;
  char byte;
  if (wait && ::read(0, &byte, 1) != 1) return 1;
  if (wait || (argc > 2 && std::strcmp(argv[2], "plugin") == 0)) {
    sink = sink + call_plugin(0, n);
    sink = sink + call_plugin(n, n + 1);
  }
  return 0;
}
