#!/bin/sh
# unprivileged.sh [--bpf-caps] DTPP EXPECTED ARGS...: runs dtpp as user nobody (from a copy it can
# reach, whatever the build directory's permissions), with CAP_BPF and CAP_PERFMON when asked,
# and requires it to print EXPECTED and nothing else.
set -u
caps=
if [ "$1" = --bpf-caps ]; then
  caps="--inh-caps=+bpf,+perfmon --ambient-caps=+bpf,+perfmon"
  shift
fi
dtpp=$1 expected=$2
shift 2
[ "$(id -u)" -eq 0 ] || { echo "dtpp-kernel-skip: dropping privileges needs root"; exit 0; }
# The capabilities are for what tracefs's permissions keep from nobody (its default: root only).
if [ -n "$caps" ] && setpriv --reuid=65534 --regid=65534 --clear-groups test -r /sys/kernel/tracing/events; then
  echo "dtpp-kernel-skip: tracefs is readable by nobody here"
  exit 0
fi
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cp "$dtpp" "$dir/dtpp" && chmod 755 "$dir" "$dir/dtpp" || exit 1
# shellcheck disable=SC2086 # $caps is two options or none
out=$(cd "$dir" && setpriv --reuid=65534 --regid=65534 --clear-groups $caps ./dtpp "$@" 2>&1)
printf '%s\n' "$out"
[ "$out" = "$expected" ] || { echo "expected: $expected"; exit 1; }
