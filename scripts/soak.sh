#!/usr/bin/env bash
# Soak: 200 honest sessions play for 2 minutes, each from its own
# loopback address, while one hostile client loops through what a client could do to the server (sshuffle-load --hostile).
# Reports the server's RSS before and after and whether every key sent by an
# honest session was answered by a frame. Not part of `make test`.
#   SESSIONS=200 DURATION=120s bash scripts/soak.sh
set -euo pipefail
SESSIONS=${SESSIONS:-200}
DURATION=${DURATION:-120s}
RAMP=${RAMP:-20s}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/sshuffle" ./cmd/sshuffle
go build -o "$work/sshuffle-load" ./cmd/sshuffle-load
port=$(( 20000 + RANDOM % 20000 ))
mport=$(( port + 1 ))
"$work/sshuffle" serve --addr "127.0.0.1:$port" --data "$work/data" --metrics-addr "127.0.0.1:$mport" 2>"$work/server.log" &
pid=$!
for _ in $(seq 100); do grep -q msg=listening "$work/server.log" && break; sleep 0.1; done
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
sleep 3
before=$(rss)
echo "server pid $pid; RSS before: ${before} kB"
set +e
"$work/sshuffle-load" --addr "127.0.0.1:$port" --sessions "$SESSIONS" --ramp "$RAMP" --duration "$DURATION" \
  --every 2s --hostile --spread 2>"$work/load.err"
status=$?
set -e
peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
mem() { curl -s "127.0.0.1:$mport/metrics" | awk '/^go_goroutines / {g=$2} /^go_memstats_heap_inuse_bytes / {h=$2} END {printf "goroutines %d, heap in use %.1f MB", g, h/1048576}'; }
echo "right after: RSS $(rss) kB; $(mem)"
sleep "${SETTLE:-60}" # sessions close; Go hands freed memory back to the system gradually
after=$(rss)
echo "after ${SETTLE:-60}s: $(mem)"
echo "RSS after: ${after} kB (peak ${peak} kB; after/before $(awk "BEGIN {printf \"%.2f\", $after/$before}"))"
echo "server still running: $(kill -0 "$pid" 2>/dev/null && echo yes || echo NO)"
echo "metrics:"; curl -s "127.0.0.1:$mport/metrics" | grep -E '^sshuffle_(refused_total|connections_closed_total|search_seconds_count|sessions)' || true
echo "server log: $(grep -c . "$work/server.log") lines, $(grep -c level=ERROR "$work/server.log") errors"
grep level=ERROR "$work/server.log" | head -5 || true
if [ -s "$work/load.err" ]; then echo "load generator errors:"; head -20 "$work/load.err"; fi
exit $status
