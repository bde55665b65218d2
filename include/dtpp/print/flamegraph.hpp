// An interactive SVG flame graph of folded stacks (-x flamegraph=FILE.svg), self-contained: boxes
// for frames, as wide as their counts, siblings merged and sorted by name as FlameGraph draws
// them, the root at the bottom; a tooltip (<title>) per frame, click to zoom, Ctrl-F or the
// Search button to highlight frames by regular expression. Its script is inline; it loads nothing.
#pragma once

#include <string>

#include "dtpp/print/folded.hpp"

namespace dtpp::print {

struct flamegraph_options {
  std::string title = "Flame Graph";
  double width = 1200;       ///< of the image, in pixels
  double frame_height = 16;  ///< of one frame
};

/// The SVG document. Stacks whose count is zero or negative are left out (no width to draw);
/// with none left, the image holds the title and a note that there is nothing to draw.
/// Defined in src/print/flamegraph.cpp.
std::string flamegraph_svg(const folded_stacks& stacks, const flamegraph_options& options = {});

}  // namespace dtpp::print
