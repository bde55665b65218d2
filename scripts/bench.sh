#!/usr/bin/env bash
# The kernel benchmark next to bpftrace (installed here, for benchmarks only): every variant
# interleaved with the others, many rounds, medians. Overhead per event = a variant's median
# minus the untraced median of the same workload (docs/performance.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
command -v bpftrace > /dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q bpftrace
bash scripts/build.sh build
exec build/bench/kernel_bench --benchmark_repetitions="${REPETITIONS:-15}" \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true "$@"
