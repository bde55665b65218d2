// A D source text with its name, and the mapping from byte offsets to lines and columns.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtpp::d {

/// Where a byte of a source is: 1-based line and column (columns count bytes).
struct position {
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  friend bool operator==(const position&, const position&) = default;
};

/// A script's text and the name diagnostics give it ("x.d", or the -n description).
class source_file {
 public:
  source_file(std::string name, std::string text) : name_(std::move(name)), text_(std::move(text)) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') line_starts_.push_back(static_cast<std::uint32_t>(i + 1));
  }

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }

  position at(std::uint32_t offset) const {
    const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    const auto line = static_cast<std::uint32_t>(it - line_starts_.begin());
    return {line, offset - line_starts_[line - 1] + 1};
  }

  /// The text of a 1-based line, without its newline.
  std::string_view line_text(std::uint32_t line) const {
    if (line == 0 || line > line_starts_.size()) return {};
    const auto begin = line_starts_[line - 1];
    auto end = line < line_starts_.size() ? line_starts_[line] - 1 : static_cast<std::uint32_t>(text_.size());
    return std::string_view(text_).substr(begin, end - begin);
  }

 private:
  std::string name_;
  std::string text_;
  std::vector<std::uint32_t> line_starts_;
};

}  // namespace dtpp::d
