#!/usr/bin/env bash
# Usage: scripts/build.sh [build-dir] [extra cmake args...]
# Configures and builds dtpp (RelWithDebInfo unless the extra args say otherwise): everything, or
# only the targets DTPP_TARGETS names (blank-separated).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir=${1:-build}
shift || true

# test.sh sets DTPP_SETUP_DONE after running setup once for its two builds.
[ -n "${DTPP_SETUP_DONE:-}" ] || bash scripts/setup.sh

# Ninja for a new directory: it compiles a target's objects while the libraries the target links
# are still being built, where Make waits for them, so both cores stay busy (docs/design.md,
# "Dependencies"). A directory configured before keeps the generator it has.
generator=()
[ -f "$build_dir/CMakeCache.txt" ] || generator=(-G Ninja)
cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
# -j2 at most: the machines this runs on are small and often shared.
# shellcheck disable=SC2086 # DTPP_TARGETS is a list of words
cmake --build "$build_dir" -j2 ${DTPP_TARGETS:+--target $DTPP_TARGETS}
