// Typed C++ over the kernel: the handle compiles D, runs it in the kernel (syscall::read:entry
// and :return), and a joined visitor walks three aggregations by the size each read asked for.
// The reads are this program's own, a known workload, so the counts and bytes are exact.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "dtpp/consumer/handle.hpp"
#include "dtpp/dtpp.hpp"
#include "dtpp/kernel/driver.hpp"

int main() {
  if (const auto why = dtpp::kernel::unavailable()) {
    std::printf("dtpp-kernel-skip: %s\n", why->c_str());  // ctest reports the example skipped
    return 0;
  }
  dtpp::consumer::handle h(dtpp::kernel::engines());
  h.exec(h.compile(R"(
    syscall::read:entry /pid == $1/ { self->ts = timestamp; self->size = arg2; }
    syscall::read:return /self->ts/ {
      @calls[self->size] = count();
      @bytes[self->size] = sum(arg0);
      @slowest[self->size] = max(timestamp - self->ts);
      self->ts = 0;
    })", {std::to_string(::getpid())}));
  h.go();

  // 300 reads of 4096 bytes and 200 of 512 from /dev/zero; 100 of 64 from /dev/null, which
  // returns nothing.
  const int zero = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  char buffer[4096];
  for (int i = 0; i < 300; ++i) (void)!::read(zero, buffer, 4096);
  for (int i = 0; i < 200; ++i) (void)!::read(zero, buffer, 512);
  for (int i = 0; i < 100; ++i) (void)!::read(null, buffer, 64);
  ::close(zero);
  ::close(null);

  h.stop();
  while (h.work(stdout) == dtpp::consumer::work_status::okay) h.sleep();

  std::printf("%8s %8s %10s %s\n", "SIZE", "CALLS", "BYTES", "SLOWEST");
  dtpp::walk_joined(
      [](std::int64_t size, std::uint64_t calls, std::int64_t bytes, std::int64_t slowest) {
        std::printf("%8lld %8llu %10lld %s\n", static_cast<long long>(size),
                    static_cast<unsigned long long>(calls), static_cast<long long>(bytes),
                    slowest > 0 ? "> 0 ns" : "none");
      },
      dtpp::sort_options{.sortkey = true}, h.aggregation<dtpp::Count, std::int64_t>("calls"),
      h.aggregation<dtpp::Sum, std::int64_t>("bytes"), h.aggregation<dtpp::Max, std::int64_t>("slowest"));
}
