#!/usr/bin/env bash
# Renders an SVG flame graph in headless Chromium and saves a screenshot, to look at what a
# browser draws (boxes, labels, the script running without errors). Not part of the tests: it
# needs Debian's chromium, which scripts/setup.sh does not install (apt-get install chromium).
#
#     scripts/render-flamegraph.sh graph.svg graph.png
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 GRAPH.svg SCREENSHOT.png" >&2
  exit 2
fi
svg=$(realpath "$1")
png=$(realpath -m "$2")
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "$0: no chromium here (apt-get install chromium)" >&2
  exit 1
fi
# The image's own size, so that the screenshot holds all of it.
width=$(grep -o -m1 '<svg [^>]*width="[0-9]*"' "$svg" | sed 's/.*width="\([0-9]*\)"/\1/')
height=$(grep -o -m1 '<svg [^>]*height="[0-9]*"' "$svg" | sed 's/.*height="\([0-9]*\)"/\1/')
# --no-sandbox: root in a VM, where Chromium's sandbox refuses to start.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size="${width:-1200},${height:-800}" --screenshot="$png" "file://$svg" 2>/dev/null
echo "$png"
