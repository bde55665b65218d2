#!/bin/sh
# unprivileged.sh DTPP EXPECTED ARGS...: runs dtpp as user nobody (from a copy it can reach,
# whatever the build directory's permissions) and requires EXPECTED in what it prints.
set -u
dtpp=$1 expected=$2
shift 2
[ "$(id -u)" -eq 0 ] || { echo "dtpp-kernel-skip: dropping privileges needs root"; exit 0; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cp "$dtpp" "$dir/dtpp" && chmod 755 "$dir" "$dir/dtpp" || exit 1
out=$(cd "$dir" && setpriv --reuid=65534 --regid=65534 --clear-groups ./dtpp "$@" 2>&1)
printf '%s\n' "$out"
case $out in
  *"$expected"*) exit 0 ;;
  *) echo "expected: $expected"; exit 1 ;;
esac
