#!/bin/sh
# copyout.sh DTPP KERNEL_AVAILABLE: copyout() and copyoutstr() rewrite what a -c command is about
# to write (echo's buffer at write:entry), so that the command prints the new text. A kernel that
# withholds bpf_probe_write_user (lockdown) must say so clearly; the test then skips, saying why.
set -u
dtpp=$1 available=$2
. "$(dirname "$0")/script_start.sh"
"$dtpp" -q -w -c "/bin/echo hello world" -n 'syscall::write:entry /pid == $target/ {
  copyout("HELLO", arg1, 5); copyoutstr("W!", arg1 + 6, 1); }' > "$dir/out" 2> "$dir/err"
status=$?
refusal="dtpp: invalid probe specifier syscall::write:entry /pid == \$target/ {
  copyout(\"HELLO\", arg1, 5); copyoutstr(\"W!\", arg1 + 6, 1); }: copyout() and copyoutstr() need bpf_probe_write_user, which this kernel does not give probe programs (a kernel locked down withholds it: see kernel_lockdown(7))"
if [ "$status" -eq 1 ] && [ "$(cat "$dir/err")" = "$refusal" ]; then
  echo "dtpp-kernel-skip: this kernel withholds bpf_probe_write_user (locked down), and dtpp says so"
  exit 0
fi
[ "$status" -eq 0 ] || fail "dtpp failed ($status): $(cat "$dir/err")"
[ "$(cat "$dir/out")" = "HELLO World" ] || fail "not 'HELLO World' but: $(cat "$dir/out")"
