#!/usr/bin/env bash
# One live-play step for looking into slow moves: a fresh server pinned to
# core 1 (GOMAXPROCS=1 GOGC=200, as liveload.sh runs it) with its collector's
# trace (GODEBUG=gctrace=1) in DIR/server.log, and sshuffle-load on core 0
# writing every move that reached a screen to DIR/moves (-moves-out: when
# its key was sent, its latency), its result line in DIR/out. Prints the
# result's latency and CPU fields. Not part of `make test`.
#   bash scripts/livestep.sh DIR 500                          # 500 races of four
#   MODE="-mix kings:300,spite:150 -watchers 1 -think 3s" bash scripts/livestep.sh DIR 450
# ROOMS sets the ramp (50 ms a room); MODE, the load's rooms (default: races
# of four, a move every 2 s); DURATION, the window; SSHUFFLE_BIN, a server
# binary to run instead of building ./cmd/sshuffle; HEAP_AT / PROFILE_AT,
# seconds after the start to fetch a heap profile or a CPU profile of
# PROFILE_SECS into DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1 rooms=$2
MODE=${MODE:--races $rooms -racers 4 -every 2s}
DURATION=${DURATION:-30s}
rm -rf "$dir"; mkdir -p "$dir"
bin=${SSHUFFLE_BIN:-$dir/sshuffle}
[ -n "${SSHUFFLE_BIN:-}" ] || go build -o "$bin" ./cmd/sshuffle
go build -o "$dir/sshuffle-load" ./cmd/sshuffle-load
port=$((20000 + RANDOM % 12000)) dport=$((port + 1))
taskset -c 1 env GOMEMLIMIT=4GiB GOMAXPROCS=1 GOGC=200 GODEBUG=gctrace=1 "$bin" serve --addr 127.0.0.1:$port \
  --data "$dir/data" --fill-pools=false --max-sessions 20000 --max-per-addr 20000 --max-channels-per-conn 4 \
  --start-timeout 2m --max-startups 2000:30:4000 --debug-addr 127.0.0.1:$dport 2>"$dir/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
if [ -n "${HEAP_AT:-}" ]; then (sleep "$HEAP_AT"; curl -s "http://127.0.0.1:$dport/debug/pprof/heap?gc=1" >"$dir/heap.pb.gz") & fi
if [ -n "${PROFILE_AT:-}" ]; then (sleep "$PROFILE_AT"; curl -s "http://127.0.0.1:$dport/debug/pprof/profile?seconds=${PROFILE_SECS:-20}" >"$dir/cpu.pb.gz") & fi
# shellcheck disable=SC2086
taskset -c 0 "$dir/sshuffle-load" -addr 127.0.0.1:$port -pid $pid -ramp $((rooms * 50))ms -duration "$DURATION" \
  $MODE -moves-out "$dir/moves" >"$dir/out" 2>"$dir/err" || true
kill $pid; wait $pid 2>/dev/null || true
grep '^result' "$dir/out" | tr ' ' '\n' | grep -E 'p99_ms|max_ms|cores_window|runq|window_p99|rss_per_session' | tr '\n' ' '; echo
