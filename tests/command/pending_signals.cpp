// pending_signals SIGNAL... -- COMMAND ARG...: runs COMMAND with the signals already sent and
// blocked, as if they had arrived the instant it started (pending signals survive exec).
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <initializer_list>

int main(int argc, char* argv[]) {
  sigset_t blocked;
  sigemptyset(&blocked);
  int i = 1;
  for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    const int signal = std::strcmp(argv[i], "INT") == 0 ? SIGINT : std::strcmp(argv[i], "TERM") == 0 ? SIGTERM : 0;
    if (signal == 0) {
      std::fprintf(stderr, "pending_signals: INT or TERM, not %s\n", argv[i]);
      return 2;
    }
    sigaddset(&blocked, signal);
  }
  if (i + 1 >= argc) {
    std::fprintf(stderr, "usage: pending_signals SIGNAL... -- COMMAND ARG...\n");
    return 2;
  }
  sigprocmask(SIG_BLOCK, &blocked, nullptr);
  for (int signal : {SIGINT, SIGTERM})
    if (sigismember(&blocked, signal)) raise(signal);
  execvp(argv[i + 1], argv + i + 1);
  std::perror(argv[i + 1]);
  return 127;
}
