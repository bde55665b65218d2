// Exits 77 and says why when this machine cannot trace the kernel (no privilege, no BPF, no
// tracefs): kernel tests are then skipped with that reason instead of failing.
#include <cstdio>

#include "dtpp/kernel/driver.hpp"

int main() {
  if (const auto why = dtpp::kernel::unavailable()) {
    std::printf("%s\n", why->c_str());
    return 77;
  }
  return 0;
}
