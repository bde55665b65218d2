// A scoped TZ for tests of %Y and %T, so that local times are exact.
#pragma once

#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>

// Sets TZ for the life of the object and restores it after.
class time_zone {
 public:
  explicit time_zone(const char* tz) {
    if (const char* old = std::getenv("TZ")) old_ = old;
    setenv("TZ", tz, 1);
    tzset();
  }
  ~time_zone() {
    if (old_)
      setenv("TZ", old_->c_str(), 1);
    else
      unsetenv("TZ");
    tzset();
  }
  /// US/Pacific as a POSIX rule, so that tests need no time zone database.
  static constexpr const char* us_pacific = "PST8PDT,M3.2.0,M11.1.0";

  time_zone(const time_zone&) = delete;
  time_zone& operator=(const time_zone&) = delete;

 private:
  std::optional<std::string> old_;
};
