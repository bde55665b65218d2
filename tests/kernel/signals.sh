#!/bin/sh
# signals.sh DTPP BPF_OBJECTS KERNEL_AVAILABLE: starts and stops dtpp three rounds of four ways (SIGINT,
# SIGTERM, exit() and the end of a -c command, and requires each run to end as dtrace(1)'s does
# (status 0, END's output) and the system's BPF programs and maps to return to their number.
set -u
dtpp=$1 objects=$2 available=$3
. "$(dirname "$0")/objects_settle.sh"
why=$($available) || { echo "dtpp-kernel-skip: $why"; exit 0; }
before=$($objects)
script='syscall::getppid:entry, syscall::read:entry { @calls = count(); } END { printf("end\n"); }'
for round in 1 2 3; do
  for signal in INT TERM; do
    out=$(timeout -s "$signal" --preserve-status 0.4 "$dtpp" -q -n "$script")
    status=$?
    case $out in
      end*) ;;
      *) echo "round $round, SIG$signal: no END output: $out"; exit 1 ;;
    esac
    [ "$status" -eq 0 ] || { echo "round $round, SIG$signal: status $status"; exit 1; }
  done
  "$dtpp" -q -n 'BEGIN { exit(0); } syscall::read:entry { @ = count(); }' > /dev/null || exit 1
  "$dtpp" -q -c true -n "$script" > /dev/null 2>&1 || { echo "round $round: -c run failed"; exit 1; }
done
objects_back_to "$before"
