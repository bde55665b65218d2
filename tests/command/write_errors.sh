#!/bin/sh
# write_errors.sh DTPP: an output that refuses what is written is reported in dtrace(1)'s words
# with exit status 1 (standard output full or closed, -o FILE full, the final aggregations, -l);
# a reader that goes away (`| head`) ends the run quietly.
set -u
dtpp=$1
fail() { echo "$*"; exit 1; }
# expect STATUS STDERR COMMAND...: runs the command, compares its status and standard error.
expect() {
  want_status=$1 want_err=$2
  shift 2
  err=$("$@" 2>&1 >/dev/null)  # the command's own redirections come after these
  status=$?
  [ "$status" -eq "$want_status" ] && [ "$err" = "$want_err" ] ||
    fail "$*: status $status, stderr '$err' (wanted $want_status, '$want_err')"
}
full() { "$dtpp" "$@" > /dev/full; }
closed() { "$dtpp" "$@" >&-; }
printf_exit='BEGIN { printf("x\n"); exit(0); }'
expect 1 'dtpp: failed to write to <stdout>: No space left on device' full -q -n "$printf_exit"
expect 1 'dtpp: failed to write to /dev/full: No space left on device' "$dtpp" -q -o /dev/full -n "$printf_exit"
expect 1 'dtpp: failed to write to <stdout>: Bad file descriptor' closed -q -n "$printf_exit"
# Nothing but the aggregations printed at the end.
expect 1 'dtpp: failed to write to <stdout>: No space left on device' full -q -n 'BEGIN { @ = count(); exit(0); }'
expect 1 'dtpp: failed to write to <stdout>: No space left on device' full -l -n BEGIN
# A reader that goes away: no message, status 1 (SIGPIPE's death would be 141), and what it read.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
out=$( ("$dtpp" -q -n 'tick-1ms { printf("line %d\n", i++); }' 2>"$tmp/err"; echo $? >"$tmp/status") | head -2)
[ "$out" = "$(printf 'line 0\nline 1')" ] || fail "| head -2 printed '$out'"
[ "$(cat "$tmp/status")" = 1 ] || fail "| head -2: status $(cat "$tmp/status")"
[ ! -s "$tmp/err" ] || fail "| head -2: stderr '$(cat "$tmp/err")'"
