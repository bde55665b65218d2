#!/bin/sh
# bpflog.sh DTPP KERNEL_AVAILABLE: -x bpflog (and its pragma) prints each loaded program's whole
# verifier log on standard error, every line after "BPF: ", as dtrace-utils does; the program's
# own output is unchanged; under -x engine=auto the program runs in the kernel for it, and an
# explicit -x engine=inproc keeps it in-process, with no log.
set -u
dtpp=$1 available=$2
why=$($available) || { echo "dtpp-kernel-skip: $why"; exit 0; }
err=$(mktemp) && trap 'rm -f "$err"' EXIT
check() {  # check WHAT ARGS...: status 0, "begun" alone on stdout, a whole log on stderr
  what=$1; shift
  out=$("$dtpp" "$@" 2> "$err") || { echo "$what: status $?"; cat "$err"; exit 1; }
  [ "$out" = begun ] || { echo "$what: stdout is '$out'"; exit 1; }
  grep -qv '^BPF: ' "$err" && { echo "$what: a line without 'BPF: '"; cat "$err"; exit 1; }
  grep -q '^BPF: processed [0-9]* insns' "$err" || { echo "$what: no statistics"; cat "$err"; exit 1; }
  grep -q '^BPF: .*(bf) r6 = r1$' "$err" || { echo "$what: no instruction states (log level 2)"; cat "$err"; exit 1; }
}
check "-x bpflog" -x bpflog -q -n 'BEGIN { printf("begun\n"); exit(0); }'
check "pragma" -q -n '#pragma D option bpflog
BEGIN { printf("begun\n"); exit(0); }'
out=$("$dtpp" -x bpflog -x engine=inproc -q -n 'BEGIN { printf("begun\n"); exit(0); }' 2>&1)
[ "$out" = begun ] || { echo "engine=inproc: output is '$out'"; exit 1; }
