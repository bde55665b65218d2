// A file descriptor that closes itself: every kernel object the driver makes (maps, programs,
// perf events, links) is held by one, so that it is released on every path out.
#pragma once

#include <unistd.h>

#include <utility>

namespace dtpp::kernel {

class fd {
 public:
  fd() = default;
  explicit fd(int v) : v_(v) {}
  fd(fd&& o) noexcept : v_(std::exchange(o.v_, -1)) {}
  fd& operator=(fd&& o) noexcept {
    if (this != &o) {
      reset();
      v_ = std::exchange(o.v_, -1);
    }
    return *this;
  }
  ~fd() { reset(); }
  int get() const { return v_; }
  void reset() {
    if (v_ >= 0) ::close(v_);
    v_ = -1;
  }

 private:
  int v_ = -1;
};

}  // namespace dtpp::kernel
