#!/usr/bin/env bash
# Installs what is missing, builds, and runs dtpp's main job: examples/trace_syscalls.d traces the
# live system for five seconds in the kernel. Where the kernel refuses (no root, no BPF, no
# tracefs), dtpp says why and the in-process tracer demo runs instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Only what the demo runs: the command and its libraries, and the in-process demo.
DTPP_TARGETS="dtpp_command native_tracer" bash scripts/build.sh build

if build/tools/dtpp -s examples/trace_syscalls.d; then
  exit 0
fi
echo "demo: the kernel refused (above); running the in-process tracer demo instead" >&2
exec build/examples/native_tracer
