#!/bin/sh
# usdt_later_process.sh DTPP KERNEL_AVAILABLE TARGET: PROVIDER*:::NAME with -Z finds the USDT sites
# of a program that no process ran when dtpp started (a fresh copy of the target, started after
# dtpp is ready), as DTrace finds processes that start later, for each clause naming it; the copy
# waits until its semaphore says the probe is placed, then fires it 3 times.
set -u
dtpp=$1 available=$2 target=$3
. "$(dirname "$0")/script_start.sh"
cp "$target" "$dir/later_target"
"$dtpp" -q -Z -n 'BEGIN { printf("ready\n"); }
  pidtest*:::guarded { @[pid, probeprov, probemod, probename] = count(); }
  pidtest*:::guarded { @sum[pid] = sum(arg0); }' > "$dir/out" 2>&1 &
tracer=$!
wait_until_ready "$dir/out" || exit 1
"$dir/later_target" 3 wait-for-tracer &
pid=$!
wait "$pid" || fail "the target failed"
kill -TERM "$tracer"
wait "$tracer" || fail "dtpp failed: $(cat "$dir/out")"
grep -qx "  *$pid  pidtest  *a.out  *guarded  *3" "$dir/out" || fail "not 3 firings of pid $pid in: $(cat "$dir/out")"
grep -qx "  *$pid  *3" "$dir/out" || fail "not 0 + 1 + 2 for pid $pid in: $(cat "$dir/out")"
