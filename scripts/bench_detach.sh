#!/bin/sh
# bench_detach.sh [DTPP]: how long dtpp takes to end a run over many tracepoints, from exit() in
# the first tick after every probe is attached to the process's end (detaching, END, the last
# records). As root; docs/performance.md has its figures.
set -u
dtpp=${1:-build/tools/dtpp}
for description in 'tracepoint:sched::' 'tracepoint:xfs::' 'tracepoint:::'; do
  count=$("$dtpp" -l -n "$description" | tail -n +2 | wc -l)
  started=$(date +%s%N)
  exited=$("$dtpp" -q -n "$description /pid == -1/ { } tick-1ms { printf(\"%d\", walltimestamp); exit(0); }" 2>/dev/null)
  ended=$(date +%s%N)
  echo "$description: $count tracepoints, run $(( (ended - started) / 1000000 )) ms, ended $(( (ended - exited) / 1000000 )) ms after exit()"
  sleep 60  # the last run's events are still being released in the background; let them go
done
