#!/usr/bin/env bash
# Installs what dtpp needs to build, test and trace on Debian 12, and nothing when all is there,
# so every other script can run it first. Safe to run any number of times.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(g++ cmake make ninja-build pkg-config libboost-dev libelf-dev libbpf-dev catch2 libbenchmark-dev
          systemtap-sdt-dev
          liblzma-dev xz-utils  # stripped libraries' MiniDebugInfo (.gnu_debugdata) is xz-compressed
          nlohmann-json3-dev  # -x oformat=json and the handle's JSON documents
          python3-jsonschema  # tests: JSON output checked against docs/dtpp-output.schema.json
          gawk  # scripts/conformance.sh
          prometheus curl  # the fleet test: Prometheus scrapes two dtpp runs (-x metrics)
          man-db groff-base  # the dtpp(1) man page's rendering test (man -l, groff -ww)
          clang libclang-rt-14-dev)  # libFuzzer for the D front end's fuzz test

# Root runs commands directly; anyone else through sudo (asked for only when needed).
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "setup: need root (or sudo) to run: $*" >&2
    return 1
  fi
}

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${missing[@]}"
fi

# The kernel shim reads tracepoints through tracefs. Without it only the in-process engine works,
# which is no reason to stop a build or the unit tests.
if mountpoint -q /sys/kernel/tracing; then
  :
elif [ "$(id -u)" -ne 0 ]; then
  echo "setup: note: tracefs is not mounted at /sys/kernel/tracing and mounting it needs root;" \
    "kernel tracing will not work until it is" >&2
elif mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
  echo "setup: mounted tracefs at /sys/kernel/tracing"
else
  echo "setup: note: could not mount tracefs at /sys/kernel/tracing (a container without" \
    "CAP_SYS_ADMIN?); kernel tracing will not work here, everything else will" >&2
fi
