#!/bin/sh
# pid.sh DTPP BPF_OBJECTS KERNEL_AVAILABLE TARGET: the pid provider with -c, end to end.
# - @[ustack()] of a -c command names its frames (demangled, module`function+0xoff) after it exits;
# - exit() while the command runs kills it, as dtrace(1) does;
# - runs attaching pid probes leave no uprobe in tracefs and no BPF program or map behind.
set -u
dtpp=$1 objects=$2 available=$3 target=$4
. "$(dirname "$0")/objects_settle.sh"
why=$($available) || { echo "dtpp-kernel-skip: $why"; exit 0; }
name=${target##*/}
fail() { echo "$*"; exit 1; }
uprobes() { n=$(grep -c . /sys/kernel/tracing/uprobe_events 2>/dev/null); echo "${n:-0}"; }
before=$($objects) uprobes_before=$(uprobes)

# The first frame at a function's entry is the function itself; its caller comes next (the kernel
# unwinds a `push %rbp` entry through the return address), then the C library's start-up code.
out=$("$dtpp" -q -c "$target 3" -n 'pid$target:a.out:*sum_of_eight*:entry { @[ustack()] = count(); }' 2>&1) ||
  fail "ustack run failed: $out"
echo "$out" | grep -qx "              $name\`sum_of_eight(long, long, long, long, long, long, long, long)" ||
  fail "no demangled first frame in: $out"
echo "$out" | grep -qx "              $name\`main+0x[0-9a-f]*" || fail "no main+0x... frame in: $out"
echo "$out" | grep -qx "                1" || fail "not one stack counted once in: $out"

for round in 1 2; do
  # A command far from done when exit() ends the run is killed, and reaped.
  out=$("$dtpp" -q -c "$target 1000000000" -n 'pid$target:a.out:*area*:return /arg1 == 4/ { exit(0); }' 2>&1) ||
    fail "round $round: exit() run failed: $out"
  pgrep -x "$name" > /dev/null && fail "round $round: the -c command is still running"
  "$dtpp" -q -c "$target 2" -n 'pid$target:a.out::entry, pid$target:a.out::return { @ = count(); }' > /dev/null 2>&1 ||
    fail "round $round: a run over every function failed"
done
[ "$(uprobes)" -eq "$uprobes_before" ] || fail "uprobes in tracefs: $uprobes_before before, $(uprobes) after"
objects_back_to "$before"
