// Several D programs as one text, each starting where the one before ends, so that checked
// together they share variables and aggregations as the programs of one dtrace(1) run do; a
// place in that text says which program it is in.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtpp/d/span.hpp"

namespace dtpp::d {

class joined_text {
 public:
  /// Appends a program, on a line of its own.
  void add(std::string_view program) {
    if (!starts_.empty()) text_ += '\n';
    starts_.push_back(static_cast<std::uint32_t>(text_.size()));
    text_ += program;
  }

  const std::string& text() const { return text_; }
  std::size_t programs() const { return starts_.size(); }
  /// Where program i begins in the text.
  std::uint32_t start(std::size_t i) const { return starts_[i]; }

  /// The program a place in the text is in (the last one for no place), and the place within
  /// that program.
  std::pair<std::size_t, span> locate(span where) const {
    if (where == nowhere) return {starts_.size() - 1, where};
    const auto i =
        static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), where.begin) - starts_.begin()) - 1;
    return {i, {where.begin - starts_[i], where.end - starts_[i]}};
  }

 private:
  std::string text_;
  std::vector<std::uint32_t> starts_;
};

}  // namespace dtpp::d
