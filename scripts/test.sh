#!/usr/bin/env bash
# The whole test suite: a RelWithDebInfo build with every test; a Release build running the unit,
# example, command, C API and kernel tests (optimisers move what stack tests look at); a Debug
# build running them under ASan and UBSan; and a ThreadSanitizer Debug build of the in-process,
# consumer and C API tests (two handles on two threads, the engine's timer threads). Fails on the first
# failure. Kernel tests (label kernel) need root, BPF and tracefs; where the kernel refuses they
# are reported as skipped, with the reason.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

start=$SECONDS
trap 'echo "test.sh: $(( SECONDS - start ))s in total"' EXIT
# Runs a step and says how long it took: the log then shows where CI's 30 minutes go.
step() {
  local step_start=$SECONDS
  "$@"
  echo "test.sh: $(( SECONDS - step_start ))s: $*"
}

bash scripts/setup.sh
export DTPP_SETUP_DONE=1
run_labels='unit|example|command|capi|kernel'

# Line tables only (-g1): no test reads variables' debug info, and making it cost a third of each
# file's compile time (CI has 30 minutes for the four builds). The default build keeps full -g.
step bash scripts/build.sh build -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
step ctest --test-dir build --output-on-failure -j2

# Benchmarks, compile-fail, header, install and fuzz checks gain nothing from another build; skip them.
step bash scripts/build.sh build-release -DCMAKE_BUILD_TYPE=Release -DDTPP_BENCH=OFF -DDTPP_CODE_CHECKS=OFF
step ctest --test-dir build-release --output-on-failure -j2 -L "$run_labels"

# Under the sanitizers every process pays LeakSanitizer's scan at exit and the dtpp command is
# linked -no-pie (as a PIE its start applied 1.16 million relocations): docs/performance.md,
# "The test suite's time". Fixtures that test nothing of dtpp's are built unsanitized.
step bash scripts/build.sh build-san -DDTPP_SANITIZE=ON -DDTPP_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug
step ctest --test-dir build-san --output-on-failure -j2 -L "$run_labels"

tsan_targets="dtpp_inproc_tests dtpp_consumer_tests capi_stddev_walk capi_percpu_walk capi_snap_clear"
tsan_targets+=" capi_joined_walk capi_api_checks"
# Debug: the optimiser adds nothing TSan looks at, and -O2 of the whole library under TSan cost
# minutes of CI's 30.
step env DTPP_TARGETS="$tsan_targets" bash scripts/build.sh build-tsan -DDTPP_SANITIZE=thread -DDTPP_BENCH=OFF \
  -DDTPP_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Debug
step env TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -j2 \
  -R '^(inproc|consumer|capi): ' -E '^capi: example35$'
