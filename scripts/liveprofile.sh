#!/usr/bin/env bash
# Where the server's CPU goes in live play: one server pinned to one core
# with GOMAXPROCS=1 (as scripts/liveload.sh runs it) under the load
# generator on the other core, a CPU profile and an allocation profile
# taken over the measured window from --debug-addr, and their top
# functions written out. One kind a run (race, kings, spite), or mixed:
# Kings and Spite tables at once (ROOMS=K:S, as liveload.sh's MIXED_STEPS).
# Not part of `make test`.
#   KIND=kings ROOMS=80 bash scripts/liveprofile.sh
#   KIND=mixed ROOMS=400:200 bash scripts/liveprofile.sh
#   KIND=race ROOMS=200 OUT=/tmp/race.txt bash scripts/liveprofile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
KIND=${KIND:-kings}
ROOMS=${ROOMS:-80}
WATCHERS=${WATCHERS:-1}
THINK=${THINK:-3s}
EVERY=${EVERY:-2s}
RAMP_PER_ROOM=${RAMP_PER_ROOM:-50ms}
SECONDS_PROFILED=${SECONDS_PROFILED:-20}
SERVER_CPU=${SERVER_CPU:-1}
LOAD_CPU=${LOAD_CPU:-0}
NODES=${NODES:-35}
OUT=${OUT:-/tmp/liveprofile-$KIND.txt}
KEEP=${KEEP:-} # a directory to keep the profiles and binary in

work=$(mktemp -d)
pid=""
stop() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi; }
trap 'stop; rm -rf "$work"' EXIT
go build -o "$work/sshuffle" ./cmd/sshuffle
go build -o "$work/sshuffle-load" ./cmd/sshuffle-load

port=$(( 20000 + RANDOM % 12000 ))
dport=$(( port + 1 ))
taskset -c "$SERVER_CPU" env GOMAXPROCS=1 GOGC=200 GOMEMLIMIT=4GiB \
  "$work/sshuffle" serve --addr "127.0.0.1:$port" --data "$work/data" --fill-pools=false --debug-addr "127.0.0.1:$dport" \
  --max-sessions 20000 --max-per-addr 20000 --max-channels-per-conn 4 --start-timeout 2m --max-startups 2000:30:4000 2>"$work/server.log" &
pid=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
sleep 1

ms=${RAMP_PER_ROOM%ms}
rooms=$ROOMS
[ "$KIND" = mixed ] && rooms=$(( ${ROOMS%%:*} + ${ROOMS#*:} ))
ramp_s=$(( rooms * ms / 1000 + 1 ))
case $KIND in
  race) mode=(-races "$ROOMS" -racers 4 -every "$EVERY") ;;
  kings | spite) mode=(-tables "$ROOMS" -game "$KIND" -watchers "$WATCHERS" -think "$THINK") ;;
  mixed) mode=(-mix "kings:${ROOMS%%:*},spite:${ROOMS#*:}" -watchers "$WATCHERS" -think "$THINK") ;;
  *) echo "KIND is race, kings, spite or mixed" >&2; exit 2 ;;
esac
taskset -c "$LOAD_CPU" "$work/sshuffle-load" -addr "127.0.0.1:$port" -pid "$pid" -ramp "$(( ramp_s ))s" \
  -duration "$(( SECONDS_PROFILED + 5 ))s" "${mode[@]}" >"$work/load.out" 2>"$work/load.err" &
lpid=$!
# The ramp and the generator's settle (3 s), then the profiles.
sleep $(( ramp_s + 4 ))
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
curl -s -o "$work/heap0.pb.gz" "http://127.0.0.1:$dport/debug/pprof/allocs"
curl -s -o "$work/cpu.pb.gz" "http://127.0.0.1:$dport/debug/pprof/profile?seconds=$SECONDS_PROFILED"
curl -s -o "$work/heap1.pb.gz" "http://127.0.0.1:$dport/debug/pprof/allocs"
wait "$lpid" || true
stop
{
  echo "$ KIND=$KIND ROOMS=$ROOMS WATCHERS=$WATCHERS THINK=$THINK EVERY=$EVERY SECONDS_PROFILED=$SECONDS_PROFILED bash scripts/liveprofile.sh"
  echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)'), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load average at the profile: $load_before"
  grep '^result ' "$work/load.out" || echo "(no result line from the load generator)"
  echo
  echo "CPU, top $NODES by flat:"
  go tool pprof -top -nodecount="$NODES" "$work/sshuffle" "$work/cpu.pb.gz" 2>/dev/null
  echo
  echo "CPU, top $NODES by cumulative:"
  go tool pprof -top -cum -nodecount="$NODES" "$work/sshuffle" "$work/cpu.pb.gz" 2>/dev/null
  echo
  echo "Allocated bytes over the window, top $NODES by flat:"
  go tool pprof -top -sample_index=alloc_space -nodecount="$NODES" -base "$work/heap0.pb.gz" "$work/sshuffle" "$work/heap1.pb.gz" 2>/dev/null
} >"$OUT"
if [ -n "$KEEP" ]; then mkdir -p "$KEEP"; cp "$work"/*.pb.gz "$work/sshuffle" "$KEEP/"; fi
echo "wrote $OUT"
