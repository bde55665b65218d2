// The SVG flame graph: folded stacks merged into a tree, laid out bottom up, drawn with a small
// inline script for zoom, search and the details line.

#include "dtpp/print/flamegraph.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string_view>

#include "dtpp/print/append.hpp"

namespace dtpp::print {
namespace {

// A frame of the merged tree: its samples, and its callees by name (so sorted, as FlameGraph
// sorts them).
struct frame_node {
  std::int64_t samples = 0;
  std::map<std::string, frame_node> callees;
};

std::size_t depth_of(const frame_node& n) {
  std::size_t deepest = 0;
  for (const auto& [name, callee] : n.callees) deepest = std::max(deepest, 1 + depth_of(callee));
  return deepest;
}

std::string xml_escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 allows no control characters but tab, newline and carriage return.
        out += static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : c;
    }
  }
  return out;
}

constexpr double font_size = 12;
constexpr double char_width = 0.59 * font_size;  // an average glyph of the sans-serif font
constexpr double side_pad = 10, top_pad = 48, bottom_pad = 32;

// A warm colour from the frame's name, the same name the same colour in every graph.
std::string colour(std::string_view name) {
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  const auto part = [&](int shift) { return ((h >> shift) & 0xff) / 255.0; };
  char text[32];
  std::snprintf(text, sizeof text, "rgb(%d,%d,%d)", 205 + static_cast<int>(50 * part(0)),
                static_cast<int>(230 * part(8)), static_cast<int>(55 * part(16)));
  return text;
}

// The label that fits a box `width` wide: the name, cut with ".." when too long, nothing when
// even three characters do not fit. The script does the same after a zoom.
std::string label(std::string_view name, double width) {
  const auto fits = static_cast<std::size_t>(width / char_width);
  if (fits < 3) return {};
  if (name.size() <= fits) return std::string(name);
  return std::string(name.substr(0, fits - 2)) + "..";
}

struct layout {
  std::string& out;
  double scale;        // pixels per sample
  double image_height;
  double frame_height;
  std::int64_t total;

  void draw(const std::string& name, const frame_node& n, double x, std::size_t depth) const {
    const double width = static_cast<double>(n.samples) * scale;
    const double y = image_height - bottom_pad - static_cast<double>(depth + 1) * frame_height;
    detail::append(out, "<g class=\"f\" data-d=\"%zu\"><title>%s (%lld samples, %.2f%%)</title>", depth,
           xml_escaped(name).c_str(), static_cast<long long>(n.samples),
           100.0 * static_cast<double>(n.samples) / static_cast<double>(total));
    detail::append(out, "<rect x=\"%.3f\" y=\"%.1f\" width=\"%.3f\" height=\"%.1f\" fill=\"%s\" rx=\"2\"/>", x, y,
           width, frame_height - 1, colour(name).c_str());
    detail::append(out, "<text x=\"%.3f\" y=\"%.1f\">%s</text></g>\n", x + 3, y + frame_height - 5,
           xml_escaped(label(name, width - 3)).c_str());
    double at = x;
    for (const auto& [callee_name, callee] : n.callees) {
      draw(callee_name, callee, at, depth + 1);
      at += static_cast<double>(callee.samples) * scale;
    }
  }
};

// The script: zoom on click, reset, search by regular expression, the details line. It reads the
// layout from the boxes themselves.
constexpr std::string_view script = R"js(
var frames = [], details, matched, pad = 10, full;
function init() {
  details = document.getElementById("details");
  matched = document.getElementById("matched");
  full = parseFloat(document.documentElement.getAttribute("width")) - 2 * pad;
  var gs = document.querySelectorAll("g.f");
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], r = g.querySelector("rect"), t = g.querySelector("title").textContent;
    var f = {g: g, rect: r, text: g.querySelector("text"), x: parseFloat(r.getAttribute("x")),
             w: parseFloat(r.getAttribute("width")), d: parseInt(g.getAttribute("data-d")),
             name: t.substring(0, t.lastIndexOf(" (")), title: t, fill: r.getAttribute("fill")};
    frames.push(f);
    g.addEventListener("click", zoom.bind(null, f));
    g.addEventListener("mouseover", function (t) { details.textContent = t; }.bind(null, t));
    g.addEventListener("mouseout", function () { details.textContent = " "; });
  }
  document.getElementById("reset").addEventListener("click", reset);
  document.getElementById("search").addEventListener("click", search);
  window.addEventListener("keydown", function (e) {
    if (e.ctrlKey && e.key === "f") { e.preventDefault(); search(); }
    if (e.key === "Escape") { reset(); clear(); }
  });
}
function label(name, width) {
  var fits = Math.floor(width / (0.59 * 12));
  if (fits < 3) return "";
  return name.length <= fits ? name : name.substring(0, fits - 2) + "..";
}
function place(f, x, w, shown) {
  f.g.style.display = shown ? "" : "none";
  f.rect.setAttribute("x", x.toFixed(3));
  f.rect.setAttribute("width", w.toFixed(3));
  f.text.setAttribute("x", (x + 3).toFixed(3));
  f.text.textContent = label(f.name, w - 3);
}
function zoom(z) {
  var scale = full / z.w, eps = 1e-6;
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    if (f.d >= z.d && f.x >= z.x - eps && f.x + f.w <= z.x + z.w + eps) {
      place(f, pad + (f.x - z.x) * scale, f.w * scale, true);
      f.g.style.opacity = "";
    } else if (f.d < z.d && f.x <= z.x + eps && f.x + f.w >= z.x + z.w - eps) {
      place(f, pad, full, true);
      f.g.style.opacity = "0.6";
    } else {
      place(f, f.x, f.w, false);
    }
  }
  document.getElementById("reset").style.display = "";
}
function reset() {
  for (var i = 0; i < frames.length; i++) { place(frames[i], frames[i].x, frames[i].w, true); frames[i].g.style.opacity = ""; }
  document.getElementById("reset").style.display = "none";
}
function clear() {
  for (var i = 0; i < frames.length; i++) frames[i].rect.setAttribute("fill", frames[i].fill);
  matched.textContent = " ";
}
function search() {
  var term = prompt("Search frames (a regular expression):", "");
  clear();
  if (!term) return;
  var re;
  try { re = new RegExp(term); } catch (e) { matched.textContent = "bad expression"; return; }
  var spans = [];
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    if (f.d > 0 && re.test(f.name)) { f.rect.setAttribute("fill", "rgb(230,0,230)"); spans.push([f.x, f.x + f.w]); }
  }
  spans.sort(function (a, b) { return a[0] - b[0]; });
  var covered = 0, end = -Infinity;
  for (var j = 0; j < spans.length; j++) {
    var s = Math.max(spans[j][0], end);
    if (spans[j][1] > s) { covered += spans[j][1] - s; end = spans[j][1]; }
  }
  matched.textContent = "Matched: " + (100 * covered / full).toFixed(1) + "%";
}
)js";

}  // namespace

std::string flamegraph_svg(const folded_stacks& stacks, const flamegraph_options& options) {
  frame_node root;
  for (const auto& [stack, count] : stacks) {
    if (count <= 0) continue;
    root.samples += count;
    frame_node* at = &root;
    std::size_t start = 0;
    while (start <= stack.size()) {
      const auto end = std::min(stack.find(';', start), stack.size());
      at = &at->callees[stack.substr(start, end - start)];
      at->samples += count;
      start = end + 1;
    }
  }
  const double frame_height = options.frame_height;
  const double height = top_pad + bottom_pad + static_cast<double>(depth_of(root) + 1) * frame_height;
  std::string out;
  detail::append(out,
                 "<?xml version=\"1.0\" standalone=\"no\"?>\n"
                 "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                 "onload=\"init()\" xmlns=\"http://www.w3.org/2000/svg\">\n",
                 options.width, height, options.width, height);
  out += "<style>text { font-family: Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
         "g.f:hover rect { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
         "#reset, #search { cursor: pointer; }</style>\n";
  out += "<script><![CDATA[";
  out += script;
  out += "]]></script>\n";
  detail::append(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"rgb(248,248,240)\"/>\n",
                 options.width, height);
  detail::append(out, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" style=\"font-size: 17px\">%s</text>\n",
                 options.width / 2, xml_escaped(options.title).c_str());
  detail::append(out, "<text id=\"reset\" x=\"%.1f\" y=\"24\" style=\"display: none\">Reset Zoom</text>\n", side_pad);
  detail::append(out, "<text id=\"search\" x=\"%.1f\" y=\"24\" text-anchor=\"end\">Search</text>\n",
                 options.width - side_pad);
  detail::append(out, "<text id=\"details\" x=\"%.1f\" y=\"%.1f\"> </text>\n", side_pad, height - 10);
  detail::append(out, "<text id=\"matched\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"> </text>\n",
                 options.width - side_pad, height - 10);
  if (root.samples == 0) {
    detail::append(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no stacks to draw</text>\n",
                   options.width / 2, top_pad + frame_height);
  } else {
    const double scale = (options.width - 2 * side_pad) / static_cast<double>(root.samples);
    const layout l{out, scale, height, frame_height, root.samples};
    l.draw("all", root, side_pad, 0);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace dtpp::print
