#!/usr/bin/env bash
# The kernel benchmark next to bpftrace (installed here, for benchmarks only): every variant
# interleaved with the others, many rounds, medians. Overhead per event = a variant's median
# minus the untraced median of the same workload (docs/performance.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
# bpftrace is for this comparison only: removed again when this script installed it.
if ! command -v bpftrace > /dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q bpftrace
  trap 'DEBIAN_FRONTEND=noninteractive apt-get remove -y -q bpftrace' EXIT
fi
bash scripts/build.sh build
build/bench/kernel_bench --benchmark_repetitions="${REPETITIONS:-15}" \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true "$@"
