#!/bin/sh
# output_file.sh DTPP: -o FILE in a sticky world-writable directory neither follows another
# user's symbolic link nor appends to another user's file (fs.protected_symlinks and
# protected_regular, applied by dtpp itself); new files get mode 0644 less the umask. Needs root
# (chown), exits 77 (skipped) without it.
set -u
dtpp=$1
[ "$(id -u)" -eq 0 ] || { echo "needs root to give files to another user"; exit 77; }
fail() { echo "$*"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -m 1777 "$tmp/shared"
mkdir -m 755 "$tmp/private"
program='BEGIN { printf("x\n"); exit(0); }'
rule='another user owns in a sticky world-writable directory'
# refused NAME WHAT: -o NAME is refused, naming WHAT, and the victim file is untouched.
refused() {
  err=$("$dtpp" -q -o "$1" -n "$program" 2>&1)
  status=$?
  [ "$status" -eq 1 ] && [ "$err" = "dtpp: failed to open output file '$1': Permission denied: $2 $rule" ] ||
    fail "-o $1: status $status, '$err'"
}
echo victim > "$tmp/private/victim"
echo theirs > "$tmp/shared/theirs"
chown 65534 "$tmp/shared/theirs"
refused "$tmp/shared/theirs" "a file"
[ "$(cat "$tmp/shared/theirs")" = theirs ] || fail "another user's file was written to"
ln -s "$tmp/private/victim" "$tmp/shared/planted"
chown -h 65534 "$tmp/shared/planted"
refused "$tmp/shared/planted" "a symbolic link"
[ "$(cat "$tmp/private/victim")" = victim ] || fail "a planted link was followed"

# Our own link there is followed; another user's file outside a sticky directory is ours to write.
ln -s "$tmp/private/victim" "$tmp/shared/ours"
"$dtpp" -q -o "$tmp/shared/ours" -n "$program" || fail "-o through our own link failed"
[ "$(cat "$tmp/private/victim")" = "$(printf 'victim\nx\n')" ] || fail "our link: $(cat "$tmp/private/victim")"
chown 65534 "$tmp/private/victim"
"$dtpp" -q -o "$tmp/private/victim" -n "$program" || fail "-o outside a sticky directory failed"

# New files: 0644, or what the umask leaves of it.
(umask 022; "$dtpp" -q -o "$tmp/shared/new" -n "$program") || fail "-o a new file failed"
[ "$(stat -c %a "$tmp/shared/new")" = 644 ] || fail "mode $(stat -c %a "$tmp/shared/new") with umask 022"
(umask 077; "$dtpp" -q -o "$tmp/private/new" -n "$program") || fail "-o a new file failed"
[ "$(stat -c %a "$tmp/private/new")" = 600 ] || fail "mode $(stat -c %a "$tmp/private/new") with umask 077"
exit 0
