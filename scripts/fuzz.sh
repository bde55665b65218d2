#!/bin/sh
# scripts/fuzz.sh [SECONDS]: builds the D fuzz target (parse, check and both engines' code
# generation, nothing loaded into the kernel) and fuzzes it for SECONDS of wall clock (600 unless
# told), starting from the corpus kept in tests/fuzz/corpus. The repository is only read: new
# inputs go to BUILD/fuzz/corpus, crashes and hangs to BUILD/fuzz/ (crash-*, timeout-*, oom-*).
# With DTPP_FUZZ_MERGE=1, the repository's corpus is then rewritten as the smallest set of inputs
# that reaches every edge the old corpus and the new inputs reach (libFuzzer's -merge=1).
#
# Environment: BUILD (build directory, default ./build), DTPP_FUZZ_MERGE. Exit status: 0 when the
# run found nothing, libFuzzer's otherwise. See docs/fuzzing.md.
set -eu

seconds=${1:-600}
case $seconds in
  '' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build" -j1 --target dtpp_d_fuzz
fuzzer=$build/tests/fuzz/d_fuzz

work=$build/fuzz
mkdir -p "$work/corpus"
# The target allocates per input what the input asks for, within the limits the library sets;
# rss_limit_mb catches a limit that is missing, timeout a loop without end: libFuzzer measures
# wall-clock time, so it is generous enough for a run at nice 19 on a busy machine.
options="-max_len=8192 -rss_limit_mb=2048 -timeout=60 -dict=$root/tests/fuzz/d.dict -print_final_stats=1"

echo "fuzz: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $seconds s, corpus $(ls "$root/tests/fuzz/corpus" | wc -l) inputs"
status=0
# shellcheck disable=SC2086
"$fuzzer" $options -max_total_time="$seconds" -artifact_prefix="$work/" "$work/corpus" \
  "$root/tests/fuzz/corpus" || status=$?
echo "fuzz: ended $(date -u '+%Y-%m-%d %H:%M:%S UTC') with status $status; new inputs: $(ls "$work/corpus" | wc -l)"
ls "$work" | grep -E '^(crash|timeout|oom|leak|slow-unit)-' | sed "s|^|fuzz: finding $work/|" || true

if [ "${DTPP_FUZZ_MERGE:-0}" = 1 ] && [ "$status" = 0 ]; then
  merged=$work/merged
  rm -rf "$merged" && mkdir "$merged"
  # Edges only, not hit counts: the corpus stays at a few hundred small inputs.
  # shellcheck disable=SC2086
  "$fuzzer" $options -merge=1 -use_counters=0 "$merged" "$root/tests/fuzz/corpus" "$work/corpus"
  rm -rf "$root/tests/fuzz/corpus" && mv "$merged" "$root/tests/fuzz/corpus"
  echo "fuzz: tests/fuzz/corpus now holds $(ls "$root/tests/fuzz/corpus" | wc -l) inputs"
fi
exit "$status"
