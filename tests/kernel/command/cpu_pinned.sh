#!/bin/sh
# The cpu_option tests' workload: 100 getppid() calls on CPU 0, then 7 on CPU 1 (taskset).
if [ "$(nproc)" -lt 2 ]; then
  echo "dtpp-kernel-skip: one CPU"
  exit 0
fi
taskset -c 0 "$1" 1 100 0 0 && taskset -c 1 "$1" 1 7 0 0
