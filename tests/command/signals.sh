#!/bin/sh
# signals.sh DTPP PENDING_SIGNALS: a signal at the first instant still ends the run through END;
# a second one makes dtpp impatient, as dtrace(1): END runs, the aggregations are not printed;
# an ignored SIGINT stays ignored.
set -u
dtpp=$1 pending=$2
fail() { echo "$*"; exit 1; }
program='BEGIN { @ = count(); } END { printf("end\n"); }'
ended=$(printf 'end\n\n                1')

out=$(timeout -s KILL 20 "$pending" TERM -- "$dtpp" -q -n "$program")
status=$?
[ "$status" -eq 0 ] && [ "$out" = "$ended" ] || fail "SIGTERM at the start: status $status, output '$out'"
out=$(timeout -s KILL 20 "$pending" INT -- "$dtpp" -q -n "$program")
status=$?
[ "$status" -eq 0 ] && [ "$out" = "$ended" ] || fail "SIGINT at the start: status $status, output '$out'"

# Two: END still runs, the aggregations are left unprinted.
out=$(timeout -s KILL 20 "$pending" INT TERM -- "$dtpp" -q -n "$program")
status=$?
[ "$status" -eq 0 ] && [ "$out" = end ] || fail "SIGINT and SIGTERM at the start: status $status, output '$out'"

# Ignored by the parent (nohup, trap '' INT): the run goes on to its exit().
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
sh -c "trap '' INT; exec \"\$0\" -q -n 'tick-100ms /++i == 5/ { printf(\"ticks\n\"); exit(0); } END { printf(\"end\n\"); }'" \
  "$dtpp" > "$tmp" &
pid=$!
sleep 0.2
kill -INT $pid
wait $pid
status=$?
[ "$status" -eq 0 ] && [ "$(cat "$tmp")" = "$(printf 'ticks\nend\n\n')" ] ||
  fail "ignored SIGINT: status $status, output '$(cat "$tmp")'"
exit 0
