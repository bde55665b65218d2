#include "detach.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <system_error>
#include <thread>

namespace dtpp::kernel {
namespace {

// Enough threads that a few grace periods detach thousands of programs; each only sleeps.
constexpr std::size_t most_closing_threads = 128;

}  // namespace

void close_together(std::vector<fd>& fds) {
  std::atomic<std::size_t> next{0};
  const auto close_some = [&] {
    for (auto i = next.fetch_add(1); i < fds.size(); i = next.fetch_add(1)) fds[i].reset();
  };
  std::vector<std::thread> threads;
  const auto wanted = std::min(fds.size(), most_closing_threads);
  try {
    while (threads.size() + 1 < wanted) threads.emplace_back(close_some);
  } catch (const std::system_error&) {
    // Fewer threads than wanted: slower, and still every descriptor closes below.
  }
  close_some();
  for (auto& t : threads) t.join();
  fds.clear();
}

void release_in_background(std::vector<fd>& fds) {
  // Whoever closes an event last waits for its release, so the other process waits until this
  // one has let go of every event: until the gate's write end is closed.
  int gate[2];
  if (::pipe2(gate, O_CLOEXEC) != 0) {
    fds.clear();
    return;
  }
  // Made before fork(): a child of a process with threads may not allocate.
  std::vector<int> kept{gate[0]};
  for (const auto& f : fds) kept.push_back(f.get());
  std::sort(kept.begin(), kept.end());
  const pid_t child = ::fork();
  if (child == 0) {
    // The grandchild, an orphan at once, closes the events while this process goes on. It keeps
    // nothing else (no output stream a reader would wait on, no BPF object) and no terminal's
    // signals, and does only what is safe after fork().
    if (::fork() == 0) {
      ::setsid();
      for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(s, SIG_IGN);
      unsigned from = 0;
      for (const int k : kept) {
        if (static_cast<unsigned>(k) > from) ::close_range(from, static_cast<unsigned>(k) - 1, 0);
        from = static_cast<unsigned>(k) + 1;
      }
      ::close_range(from, ~0u, 0);
      char byte;
      while (::read(gate[0], &byte, 1) < 0 && errno == EINTR) {
      }
      for (const int k : kept) ::close(k);
    }
    ::_exit(0);
  }
  ::close(gate[0]);
  if (child > 0) {
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
  }
  fds.clear();  // the grandchild holds the events now; without one, this closes them, waiting
  ::close(gate[1]);
}

}  // namespace dtpp::kernel
