# script_start.sh, sourced by a kernel test script once $available names dtpp_kernel_available:
# skips the test (printing the reason) when the kernel refuses, defines fail and
# wait_until_ready, and makes the directory $dir, removed at exit.
why=$($available) || { echo "dtpp-kernel-skip: $why"; exit 0; }
fail() { echo "$*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# wait_until_ready FILE returns once FILE has a line "ready" (a dtpp run's BEGIN prints it), and
# fails, saying so, when it has none within 10 s.
wait_until_ready() {
  for wait in $(seq 1 200); do
    grep -q ready "$1" && return 0
    sleep 0.05
  done
  echo "dtpp did not start: $(cat "$1")"
  return 1
}
