# wait_ready.sh, sourced: wait_until_ready FILE returns once FILE has a line "ready" (a dtpp run's
# BEGIN prints it), and fails, saying so, when it has none within 10 s.
wait_until_ready() {
  for wait in $(seq 1 200); do
    grep -q ready "$1" && return 0
    sleep 0.05
  done
  echo "dtpp did not start: $(cat "$1")"
  return 1
}
