#!/usr/bin/env bash
# The whole test suite: a RelWithDebInfo build with every test, then a sanitizer build running
# the unit, example, command and kernel tests under ASan and UBSan. Fails on the first failure.
# Kernel tests (label kernel) need root, BPF and tracefs; where the kernel refuses they are
# reported as skipped, with the reason.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

start=$SECONDS
trap 'echo "test.sh: $(( SECONDS - start ))s in total"' EXIT

bash scripts/setup.sh
export DTPP_SETUP_DONE=1

bash scripts/build.sh build
ctest --test-dir build --output-on-failure -j2

# Benchmarks, compile-fail, header and install checks gain nothing from sanitizers; skip them.
bash scripts/build.sh build-san -DDTPP_SANITIZE=ON -DDTPP_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug
ctest --test-dir build-san --output-on-failure -j2 -L 'unit|example|command|kernel'
