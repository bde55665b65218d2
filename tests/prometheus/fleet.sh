#!/bin/bash
# fleet.sh DTPP PROMETHEUS: two dtpp runs serve -x metrics, a real Prometheus scrapes both, and
# its HTTP API must give the fleet-wide answers exactly: the sum of both runs' counts and
# histogram_quantile over both runs' quantize() buckets. promtool checks a live scrape too.
#
# Run A counts 300 ticks of value 5 (quantize bucket 4..7, le 7), run B 100 ticks of value 100
# (bucket 64..127, le 127): 400 events; the 0.75 quantile's rank (300) ends bucket le=7, so
# Prometheus's interpolation gives exactly 7; the 0.875 quantile's (350) is halfway through
# bucket 63..127: exactly 95.
set -u
dtpp=$1 prometheus=$2
[ -x "$prometheus" ] || { echo "fleet: prometheus is not installed (scripts/setup.sh installs it)"; exit 77; }
promtool=$(dirname "$prometheus")/promtool
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
trap "exit 1" INT TERM HUP  # so that EXIT's cleanup runs when the test is stopped too
fail() {
  echo "fleet: $*"
  for log in "$work"/*.err; do echo "--- $log"; cat "$log"; done
  exit 1
}

# One dtpp run: N ticks of quantize(VALUE) and count(), served on a port of its choosing; with
# a gauge, a label value that needs every escape and an empty aggregation, which Prometheus's
# OpenMetrics parser must take too (one error would lose the whole scrape).
start_dtpp() {  # NAME N VALUE
  "$dtpp" -q -x engine=inproc -x metrics=127.0.0.1:0 -x metrics_labels=@events:source \
    -n "tick-1ms /n < $2/ { n++; @events[\"tick\"] = count(); @latency = quantize($3); }" \
    -n 'BEGIN { @mean = avg(3); @mean = avg(4); @odd["a \"quoted\" back\\slash\nnewline"] = count(); }' \
    -n 'BEGIN /0/ { @never[probename] = count(); }' \
    > "$work/$1.out" 2> "$work/$1.err" &
  pids+=($!)
}
# The port a run reports on standard error ("dtpp: serving metrics on 127.0.0.1:PORT").
port_of() {
  for _ in $(seq 100); do
    port=$(sed -n 's/^dtpp: serving metrics on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$work/$1.err")
    [ -n "$port" ] && { echo "$port"; return; }
    sleep 0.1
  done
  fail "$1 did not say where it serves"
}
start_dtpp a 300 5
start_dtpp b 100 100
port_a=$(port_of a) port_b=$(port_of b)

# Both workloads done: the scrape shows every event.
for _ in $(seq 100); do
  a=$(curl -sf "http://127.0.0.1:$port_a/metrics") && b=$(curl -sf "http://127.0.0.1:$port_b/metrics") &&
    grep -qx 'dtpp_events_total{source="tick"} 300' <<< "$a" && grep -qx 'dtpp_events_total{source="tick"} 100' <<< "$b" &&
    break
  sleep 0.1
done
grep -qx 'dtpp_latency_count 300' <<< "$a" || fail "run a's scrape lacks its 300 events: $a"
grep -qx 'dtpp_latency_count 100' <<< "$b" || fail "run b's scrape lacks its 100 events: $b"
# promtool reads Prometheus's text format 0.0.4: what a scraper without an OpenMetrics Accept gets.
"$promtool" check metrics <<< "$a" || fail "promtool refused run a's scrape"

# A free port for Prometheus: one nothing answers on.
for _ in $(seq 50); do
  port_p=$((20000 + RANDOM % 40000))
  (exec 3<> "/dev/tcp/127.0.0.1/$port_p") 2>/dev/null || break
done
cat > "$work/prometheus.yml" <<CONFIG
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: dtpp
    static_configs:
      - targets: ['127.0.0.1:$port_a', '127.0.0.1:$port_b']
CONFIG
"$prometheus" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
  --web.listen-address="127.0.0.1:$port_p" > "$work/prometheus.err" 2>&1 &
pids+=($!)

# query PROMQL: the value of a one-element instant vector, as Prometheus's API returns it.
query() {
  curl -sf --get "http://127.0.0.1:$port_p/api/v1/query" --data-urlencode "query=$1" |
    sed -n 's/.*"result":\[{"metric":{[^}]*},"value":\[[^,]*,"\([^"]*\)"\]}\].*/\1/p'
}
for _ in $(seq 300); do
  [ "$(query 'count(up == 1)')" = 2 ] && [ "$(query 'sum(dtpp_events_total)')" = 400 ] && break
  sleep 0.1
done
expect() {  # PROMQL VALUE
  got=$(query "$1")
  [ "$got" = "$2" ] || fail "$1 is '$got', not $2"
  echo "$1 = $got"
}
expect 'count(up == 1)' 2
expect 'sum(dtpp_events_total{source="tick"})' 400
expect 'sum(dtpp_latency_count)' 400
expect 'histogram_quantile(0.75, sum by (le) (dtpp_latency_bucket))' 7
expect 'histogram_quantile(0.875, sum by (le) (dtpp_latency_bucket))' 95
expect 'max(dtpp_latency_bucket{le="7.0"})' 300
expect 'sum(dtpp_mean)' 7
expect 'sum(dtpp_odd_total{key0="a \"quoted\" back\\slash\nnewline"})' 2
