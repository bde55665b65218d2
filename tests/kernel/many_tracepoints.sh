#!/bin/sh
# many_tracepoints.sh DTPP KERNEL_CHECK COUNT: runs dtpp over the first COUNT tracepoints it lists
# (or all there are) until its first tick, and requires END's text, status 0, and nothing on
# standard error but probes it could not enable. What it checks is that the run ends within the
# test's TIMEOUT: detaching took 40 to 55 ms a tracepoint, one after another.
set -u
dtpp=$1 check=$2 count=$3
why=$("$check")
[ $? -eq 77 ] && { echo "dtpp-kernel-skip: $why"; exit 0; }
probes=$("$dtpp" -l -n 'tracepoint:::' | awk -v n="$count" 'NR > 1 && NR <= n + 1 { printf "%stracepoint:%s::%s", (NR > 2 ? "," : ""), $3, $4 }')
listed=$(printf '%s\n' "$probes" | tr ',' '\n' | wc -l)
[ "$listed" -ge 100 ] || { echo "only $listed tracepoints listed: too few to test"; exit 1; }
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
out=$("$dtpp" -q -n "$probes /pid == -1/ { } tick-1ms { exit(0); } END { printf(\"ended with %d\", 1); }" 2>"$err")
status=$?
echo "$listed tracepoints: status $status, standard output: $out"
cat "$err"
[ "$status" -eq 0 ] && [ "$out" = "ended with 1" ] && ! grep -v '^dtpp: Failed to enable tracepoint:' "$err" >/dev/null
