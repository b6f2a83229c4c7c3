#!/usr/bin/env bash
# Where an idle live session's server CPU and memory go: a fresh server
# pinned to one core (GOMAXPROCS=1) with its debug listener, TABLES still
# tables (sshuffle-load --still: two people and WATCHERS watchers each,
# seated and started, nobody moving), a CPU profile over the window, and
# the heap in use after a collection before the first session and with
# every session open, every allocation sampled (MEMPROFILERATE=1, so the
# server is slower than in liveload.sh: its figures are for finding where,
# not how much; MEMPROFILERATE=524288, Go's own, for a CPU profile as
# liveload.sh's server spends it). Writes reports/idle-profile.md (or OUT)
# with the top of each profile. Not part of `make test`.
#   bash scripts/idleprofile.sh
#   TABLES=30 MEMPROFILERATE=524288 bash scripts/idleprofile.sh
# SSHUFFLE_BIN: a server binary to run instead of building ./cmd/sshuffle.
# KEEP: a directory to keep the binary and the profiles in, for pprof.
set -euo pipefail
cd "$(dirname "$0")/.."
TABLES=${TABLES:-100}
GAME=${GAME:-spite}
WATCHERS=${WATCHERS:-1}
DURATION=${DURATION:-20s}
SERVER_CPU=${SERVER_CPU:-1}
LOAD_CPU=${LOAD_CPU:-0}
MEMPROFILERATE=${MEMPROFILERATE:-1}
OUT=${OUT:-reports/idle-profile.md}

work=$(mktemp -d)
pid=""
stop() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi; }
trap 'stop; rm -rf "$work"' EXIT
if [ -n "${SSHUFFLE_BIN:-}" ]; then cp "$SSHUFFLE_BIN" "$work/sshuffle"; else go build -o "$work/sshuffle" ./cmd/sshuffle; fi
go build -o "$work/sshuffle-load" ./cmd/sshuffle-load
port=$(( 20000 + RANDOM % 12000 )); dport=$(( port + 1 ))
taskset -c "$SERVER_CPU" env GODEBUG=memprofilerate="$MEMPROFILERATE" GOMAXPROCS=1 GOGC=200 GOMEMLIMIT=4GiB \
  "$work/sshuffle" serve --addr "127.0.0.1:$port" --data "$work/data" --fill-pools=false --debug-addr "127.0.0.1:$dport" \
  --max-sessions 20000 --max-per-addr 20000 --max-channels-per-conn 4 --start-timeout 2m --max-startups 2000:30:4000 2>"$work/server.log" &
pid=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
sleep 1
curl -s -o "$work/heap0.prof" "http://127.0.0.1:$dport/debug/pprof/heap?gc=1"
load_avg_before=$(cut -d' ' -f1-3 /proc/loadavg)
taskset -c "$LOAD_CPU" "$work/sshuffle-load" -addr "127.0.0.1:$port" -pid "$pid" -ramp "$(( TABLES * 50 ))ms" -settle 2s -duration "$DURATION" \
  -tables "$TABLES" -game "$GAME" -watchers "$WATCHERS" -still -debug "http://127.0.0.1:$dport" -cpuprofile "$work/cpu.prof" >"$work/out" 2>"$work/err" &
load=$!
# The heap with every session open: once the CPU profile (the window) is
# written, before the sessions close.
for _ in $(seq 1200); do [ -s "$work/cpu.prof" ] && break; kill -0 "$load" 2>/dev/null || break; sleep 0.1; done
curl -s -o "$work/heap1.prof" "http://127.0.0.1:$dport/debug/pprof/heap?gc=1"
wait "$load" || true
stop

if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP"; cp "$work/sshuffle" "$work"/*.prof "$KEEP/"; fi
mkdir -p "$(dirname "$OUT")"
{
  echo "\$ bash scripts/idleprofile.sh   (TABLES=$TABLES GAME=$GAME WATCHERS=$WATCHERS DURATION=$DURATION MEMPROFILERATE=$MEMPROFILERATE${SSHUFFLE_BIN:+ SSHUFFLE_BIN=$SSHUFFLE_BIN})"
  echo
  echo "    commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)'), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load average before: $load_avg_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "    server on core $SERVER_CPU (GOMAXPROCS=1 GOGC=200 GODEBUG=memprofilerate=$MEMPROFILERATE), load generator on core $LOAD_CPU"
  echo
  echo "The load generator's result (with every allocation sampled, MEMPROFILERATE=1, the server's CPU is above liveload.sh's):"
  echo
  grep '^result ' "$work/out" | sed 's/^/    /' || echo "    (no result; $(head -1 "$work/err"))"
  echo
  echo "Server CPU over the window, by cumulative time (who draws, who writes):"
  echo
  go tool pprof -top -cum -nodecount 40 "$work/sshuffle" "$work/cpu.prof" 2>/dev/null | sed 's/^/    /'
  echo
  echo "Server heap in use with every session open, above the heap before the first (after a collection each):"
  echo
  go tool pprof -sample_index=inuse_space -base "$work/heap0.prof" -top -cum -nodecount 40 "$work/sshuffle" "$work/heap1.prof" 2>/dev/null | sed 's/^/    /'
} >"$OUT"
echo "wrote $OUT"
