// The error thrown when an aggregating function's parameters break DTrace's rules.
#pragma once

#include <stdexcept>
#include <string>

namespace dtpp::agg {

/// Carries DTrace's diagnostic tag (e.g. "D_LQUANT_MISMATCH") and its message, so the D checker
/// can report the same error the C++ API throws.
class param_error : public std::invalid_argument {
 public:
  param_error(std::string tag, const std::string& message)
      : std::invalid_argument(message), tag_(std::move(tag)) {}
  const std::string& tag() const noexcept { return tag_; }

 private:
  std::string tag_;
};

}  // namespace dtpp::agg
