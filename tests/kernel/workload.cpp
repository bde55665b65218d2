// A known workload for exact-count kernel tests, linked statically so that no dynamic loader adds
// reads of its own: `workload THREADS GETPPID READ WRITE [SLEEPS]` makes each of THREADS threads
// issue exactly GETPPID getppid, READ one-byte reads of /dev/zero and WRITE one-byte writes to
// /dev/null, interleaved in that fixed mix, then sleep SLEEPS times for a millisecond each.
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>
#include <cstdlib>
#include <thread>
#include <vector>

int main(int argc, char* argv[]) {
  if (argc != 5 && argc != 6) return 2;
  const int threads = std::atoi(argv[1]);
  const long getppids = std::atol(argv[2]), reads = std::atol(argv[3]), writes = std::atol(argv[4]);
  const long sleeps = argc == 6 ? std::atol(argv[5]) : 0;
  // The paths on the stack: probes copy them in at openat (copyin, copyinstr), and a BPF program
  // cannot fault in a page of .rodata this process has not touched yet (an invalid address).
  char zero_path[] = "/dev/zero", null_path[] = "/dev/null";
  const int zero = ::open(zero_path, O_RDONLY), null = ::open(null_path, O_WRONLY);
  if (zero < 0 || null < 0) return 1;
  const auto work = [&] {
    char byte = 0;
    for (long i = 0; i < getppids || i < reads || i < writes; ++i) {
      if (i < getppids) ::syscall(SYS_getppid);
      if (i < reads && ::read(zero, &byte, 1) != 1) std::abort();
      if (i < writes && ::write(null, &byte, 1) != 1) std::abort();
    }
    const timespec millisecond{0, 1000000};
    for (long i = 0; i < sleeps; ++i) ::nanosleep(&millisecond, nullptr);
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  return 0;
}
