#!/bin/sh
# pid_leak_check.sh [BUILD_DIR] [RUNS]: issue #11's leak check, too slow for the CI suite (about
# three minutes). RUNS runs (200 by default) attaching pid and USDT probes, ended every way a run
# ends: a -c command that exits, exit() while the command still runs (dtpp kills it), a library
# loaded with dlopen() (probes placed at the loader event), -p of a running process, SIGTERM to
# dtpp, and USDT probes of every process (which note the processes that start meanwhile). Each run's counts must be exact; after each, no copy of the target may be left running
# or stopped; at the end, no uprobe may be left in tracefs, no dtpp process (the background
# releaser of perf events included) and no BPF program or map named dtpp_*. Run it as root on a
# quiet machine: another dtpp running meanwhile holds BPF objects of that name.
set -u
build=${1:-build} runs=${2:-200}
dtpp=$build/tools/dtpp objects="$build/tests/kernel/dtpp_bpf_objects dtpp"
for f in "$dtpp" "$build/tests/kernel/dtpp_bpf_objects" "$build/tests/kernel/dtpp_pid_target"; do
  [ -x "$f" ] || { echo "missing $f: build dtpp_command, dtpp_bpf_objects and dtpp_pid_target"; exit 2; }
done
fail() { echo "run $run: $*"; exit 1; }
dir=$(mktemp -d)
trap 'pkill -KILL -f "^$dir/" 2>/dev/null; rm -rf "$dir"' EXIT
# A copy of its own, with its plugin: `pgrep -f "^$dir/"` then finds this check's targets only.
cp "$build/tests/kernel/dtpp_pid_target" "$dir/target"
cp "$build/tests/kernel/libdtpp_pid_plugin.so" "$dir/"
uprobes() { n=$(grep -c . /sys/kernel/tracing/uprobe_events 2>/dev/null); echo "${n:-0}"; }
dtpp_exe=$(readlink -f "$dtpp")
dtpps() { find /proc/[0-9]*/exe -maxdepth 0 -lname "$dtpp_exe" 2>/dev/null | wc -l; }
uprobes_before=$(uprobes) objects_before=$($objects)
start=$(date +%s)
run=0
while [ $run -lt "$runs" ]; do
  run=$((run + 1))
  case $((run % 6)) in
    5) out=$("$dtpp" -q -Z -c "$dir/target 3" -n 'pidtest*:::step /pid == $target/ { @ = count(); }' 2>&1)
       echo "$out" | grep -qx ' *3' || fail "not 3 steps: $out" ;;
    0) out=$("$dtpp" -q -c "$dir/target 3" -n 'pid$target:a.out:*doubled*:entry { @ = count(); }
         pid$target:a.out:*doubled*:return { @r = sum(arg1); } pidtest$target:::step { @s = sum(arg0); }' 2>&1)
       [ "$(echo "$out" | grep -c '^ *6$')" -eq 1 ] && echo "$out" | grep -qx ' *30' && echo "$out" | grep -qx ' *3' ||
         fail "not 6 calls, 30 returned and 3 stepped: $out" ;;
    1) out=$("$dtpp" -q -c "$dir/target 1000000000" -n 'pid$target:a.out:*area*:return /arg1 == 4/ { exit(0); }' 2>&1) ||
         fail "exit() run failed: $out" ;;
    2) out=$("$dtpp" -q -Z -c "$dir/target 3 plugin" -n 'pid$target::plugin_square:entry { @ = count(); }' 2>&1)
       echo "$out" | grep -qx ' *6' || fail "not 6 plugin calls: $out" ;;
    3) "$dir/target" 1000000000 > /dev/null &
       pid=$!
       out=$("$dtpp" -q -p "$pid" -n 'pid$target:a.out:*area*:entry { @ = count(); } tick-20ms { exit(0); }' 2>&1) ||
         fail "-p run failed: $out"
       kill -KILL "$pid"; wait "$pid" 2>/dev/null ;;
    4) "$dtpp" -q -c "$dir/target 1000000000" -n 'pid$target:a.out:*area*:entry { @ = count(); }' > /dev/null 2>&1 &
       tracer=$!
       sleep 0.2
       kill -TERM "$tracer"
       wait "$tracer" ;;
  esac
  for wait in $(seq 1 50); do pgrep -f "^$dir/" > /dev/null || break; sleep 0.1; done
  pgrep -f "^$dir/" > /dev/null && fail "a target is left: $(pgrep -a -f "^$dir/")"
done
for wait in $(seq 1 100); do [ "$(dtpps)" -eq 0 ] && [ "$($objects)" = "$objects_before" ] && break; sleep 0.1; done
left_dtpp=$(dtpps) objects_after=$($objects) uprobes_after=$(uprobes)
echo "$runs runs in $(( $(date +%s) - start )) s: dtpp processes left $left_dtpp; dtpp BPF programs and maps" \
     "before '$objects_before', after '$objects_after'; uprobes in tracefs before $uprobes_before, after $uprobes_after"
[ "$left_dtpp" -eq 0 ] && [ "$objects_after" = "$objects_before" ] && [ "$uprobes_after" -eq "$uprobes_before" ]
