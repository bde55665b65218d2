#!/usr/bin/env bash
# Installs what is missing, builds, and runs dtpp's main job: for now the in-process tracer demo.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/build.sh build

demo=build/examples/native_tracer
if [ ! -x "$demo" ]; then
  echo "demo: $demo was not built: examples/native_tracer.cpp does not exist yet" >&2
  exit 1
fi
exec "$demo"
