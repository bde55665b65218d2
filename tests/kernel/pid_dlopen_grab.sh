#!/bin/sh
# pid_dlopen_grab.sh DTPP KERNEL_AVAILABLE TARGET: a library that a process grabbed with -p loads
# with dlopen() after dtpp has placed its probes gives exact counts (the process is stopped at the
# loader event by a SIGSTOP from BPF, and dtpp lets it go with SIGCONT once the library's probes
# are attached).
set -u
dtpp=$1 available=$2 target=$3
. "$(dirname "$0")/script_start.sh"
mkfifo "$dir/go"
# The target waits for a byte on the fifo before it loads the library.
"$target" 3 wait-then-plugin < "$dir/go" &
pid=$!
exec 3> "$dir/go"
"$dtpp" -q -Z -p "$pid" -n 'BEGIN { printf("ready\n"); }
  pid$target::plugin_square:entry { @calls[probefunc] = count(); }
  pid$target::plugin_square:return { @returned = sum(arg1); }' > "$dir/out" 2>&1 &
tracer=$!
wait_until_ready "$dir/out" || exit 1
echo go >&3
exec 3>&-
wait "$tracer" || fail "dtpp failed: $(cat "$dir/out")"
grep -qx '  plugin_square  *6' "$dir/out" || fail "not 6 calls in: $(cat "$dir/out")"
grep -qx ' *214' "$dir/out" || fail "not 214 returned in: $(cat "$dir/out")"
# The run ended when the process did (wait above); -q keeps dtrace(1)'s notice of it quiet.
! grep -q "pid $pid" "$dir/out" || fail "a notice under -q in: $(cat "$dir/out")"
