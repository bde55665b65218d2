# objects_settle.sh, sourced: objects_back_to BEFORE returns once the system's BPF programs and
# maps ($objects prints "PROGRAMS MAPS") are back to BEFORE's numbers or fewer, and fails, saying
# so, when they are not within 60 s. Closed programs and maps are freed after RCU grace periods,
# and a freed program's maps are let go only in its deferred free: a CI run's ASan stage still
# saw 0 programs and 4 maps after 10 s.
objects_back_to() {
  for wait in $(seq 1 600); do
    now=$($objects)
    [ "${now% *}" -le "${1% *}" ] && [ "${now#* }" -le "${1#* }" ] && return 0
    sleep 0.1
  done
  echo "BPF programs and maps before: $1, after: $now"
  return 1
}
