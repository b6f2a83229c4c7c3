#!/usr/bin/env bash
# The side by side: sshuffle and the bare Wish + Bubble Tea server
# (../shared/bench/bare), one after the other in the same run, each pinned to
# core 1 with the same GOMEMLIMIT, the load generator pinned to core 0. The
# sessions enter Klondike (the bare server has one board) and press a cursor
# key every 2 s; each server is ramped through steps of sessions and measured
# at each. Prints every step's line, then the comparison table for both.
# Not part of `make test`; it takes about 15 minutes (TWO_CORES=0: 10).
#   bash scripts/capacity.sh
#   STEPS_SSHUFFLE=100,500,1000 STEPS_BARE=100,500 DURATION=10s bash scripts/capacity.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
STEPS_SSHUFFLE=${STEPS_SSHUFFLE:-100,500,1000,1500,2000,2500,3000,3500,4000,5000}
STEPS_BARE=${STEPS_BARE:-100,500,750,1000,1250,1500,2000}
# The same runtime settings for both servers. One P on the one core, as Go
# picks by itself under taskset: with two, the collector's mark workers and
# assists time-share the core with the serving threads and a cycle took the
# whole core for 0.4-0.8 s (at 3,000 sessions: 974 ms of GC CPU in a 774 ms
# cycle with two Ps, 312 ms in 419 ms with one; the slowest echoes fell in
# those cycles, GODEBUG=gctrace=1 against sshuffle-load -slow). GOGC 200
# makes collections half as frequent. The two-core run uses two Ps.
GOMEMLIMIT_SERVER=${GOMEMLIMIT_SERVER:-4GiB}
GOMAXPROCS_SERVER=${GOMAXPROCS_SERVER:-1}
TWO_CORE_GOMAXPROCS=${TWO_CORE_GOMAXPROCS:-2}
GOGC_SERVER=${GOGC_SERVER:-200}
RATE=${RATE:-50}           # sessions opened a second
DURATION=${DURATION:-20s}  # measuring window at each step
IDLE=${IDLE:-10s}          # idle CPU window, at IDLE_AT sessions
IDLE_AT=${IDLE_AT:-500}
STOP_P99=${STOP_P99:-150ms} # stop ramping a server once its p99 is past this
SERVER_CPU=${SERVER_CPU:-1}
LOAD_CPU=${LOAD_CPU:-0}
TWO_CORES=${TWO_CORES:-1} # also both servers on both cores, the load generator beside them
BOTH_CPUS=${BOTH_CPUS:-0,1}
TWO_CORE_STEPS_SSHUFFLE=${TWO_CORE_STEPS_SSHUFFLE:-3000,4000,5000}
TWO_CORE_STEPS_BARE=${TWO_CORE_STEPS_BARE:-1000,1500,2000,2500,3000}
BARE=${BARE:-}
if [ -z "$BARE" ]; then
  for d in ../shared/bench/bare ../../shared/bench/bare /work/shared/bench/bare; do
    if [ -f "$d/main.go" ]; then BARE=$d; break; fi
  done
fi
[ -f "$BARE/main.go" ] || { echo "capacity.sh: no bare server found; set BARE=DIR" >&2; exit 2; }

work=$(mktemp -d)
pid=""
stop() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi; }
trap 'stop; rm -rf "$work"' EXIT
go build -o "$work/sshuffle" ./cmd/sshuffle
go build -o "$work/sshuffle-load" ./cmd/sshuffle-load
cp -r "$BARE" "$work/baresrc" && chmod -R u+w "$work/baresrc"
(cd "$work/baresrc" && go build -o "$work/bare" .)

echo "capacity.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "each server on core $SERVER_CPU with GOMEMLIMIT=$GOMEMLIMIT_SERVER GOMAXPROCS=$GOMAXPROCS_SERVER GOGC=$GOGC_SERVER; load generator on core $LOAD_CPU; $RATE sessions/s, window $DURATION, key every 2s"

wait_listen() { # port log
  for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "capacity.sh: the server did not start; its log:" >&2; cat "$2" >&2; exit 1
}

run() { # label port steps metrics-url, then the server command
  local label=$1 port=$2 steps=$3 metrics=$4; shift 4
  taskset -c "$SERVER_CPU" env GOMEMLIMIT="$GOMEMLIMIT_SERVER" GOMAXPROCS="$GOMAXPROCS_SERVER" GOGC="$GOGC_SERVER" \
    "$@" 2>"$work/$label.log" &
  pid=$!
  wait_listen "$port" "$work/$label.log"
  sleep 2
  taskset -c "$LOAD_CPU" "$work/sshuffle-load" -addr "127.0.0.1:$port" -pid "$pid" -label "$label" \
    -steps "$steps" -rate "$RATE" -duration "$DURATION" -every 2s -idle "$IDLE" -idle-at "$IDLE_AT" \
    -stop-p99 "$STOP_P99" -metrics "$metrics" 2>"$work/$label.load.err" | tee "$work/$label.out" || true
  if [ -s "$work/$label.load.err" ]; then echo "($label: $(grep -c . "$work/$label.load.err") load generator error lines; first: $(head -1 "$work/$label.load.err"))"; fi
  stop
}

# Below the kernel's ephemeral range (32768 and up): thousands of client
# connections must not take a port a later server listens on.
sport=$(( 20000 + RANDOM % 12000 ))
bport=$(( sport + 1 ))
# The hardening caps are raised for the load: every session comes from
# 127.0.0.1, and a slow ramp must not be mistaken for an idle connection.
mport=$(( sport + 2 ))
run sshuffle "$sport" "$STEPS_SSHUFFLE" "http://127.0.0.1:$mport/metrics" "$work/sshuffle" serve --addr "127.0.0.1:$sport" \
  --data "$work/data" --metrics-addr "127.0.0.1:$mport" --fill-pools=false --max-sessions 6000 --max-per-addr 6000 --max-channels-per-conn 4 --start-timeout 2m
run bare "$bport" "$STEPS_BARE" "" "$work/bare" -addr "127.0.0.1:$bport" -hostkey "$work/bare_host_ed25519"
# The two-core run: each server on both cores, the load
# generator beside it on the same two (it has no third), no idle window.
if [ "$TWO_CORES" = 1 ]; then
  rm -rf "$work/data"
  sport=$(( sport + 3 )) bport=$(( bport + 3 )) mport=$(( mport + 3 ))
  GOMAXPROCS_SERVER=$TWO_CORE_GOMAXPROCS SERVER_CPU=$BOTH_CPUS LOAD_CPU=$BOTH_CPUS IDLE=0 run sshuffle2 "$sport" "$TWO_CORE_STEPS_SSHUFFLE" "http://127.0.0.1:$mport/metrics" "$work/sshuffle" serve --addr "127.0.0.1:$sport" \
    --data "$work/data" --metrics-addr "127.0.0.1:$mport" --fill-pools=false --max-sessions 6000 --max-per-addr 6000 --max-channels-per-conn 4 --start-timeout 2m
  GOMAXPROCS_SERVER=$TWO_CORE_GOMAXPROCS SERVER_CPU=$BOTH_CPUS LOAD_CPU=$BOTH_CPUS IDLE=0 run bare2 "$bport" "$TWO_CORE_STEPS_BARE" "" "$work/bare" -addr "127.0.0.1:$bport" -hostkey "$work/bare_host_ed25519"
fi

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
awk -v idleat="$IDLE_AT" '
function val(line, key,   re, m) {
  if (match(line, key "=[^ ]+")) { return substr(line, RSTART + length(key) + 1, RLENGTH - length(key) - 1) }
  return ""
}
FNR == 1 { s = (FILENAME ~ /sshuffle2.out$/) ? "s2" : (FILENAME ~ /bare2.out$/) ? "b2" : (FILENAME ~ /sshuffle.out$/) ? "s" : "b"; first[s] = "" }
/^step / {
  n = val($0, "sessions") + 0
  p99 = val($0, "echo_p99_ms") + 0
  ok = (val($0, "failed") == "0" && val($0, "missed") == "0" && val($0, "live") + 0 == n)
  # The count held is the last of an unbroken run of steps under 50 ms: a
  # step that passed after one that failed is reported beside it.
  if (ok && p99 < 50 && n > passed[s]) passed[s] = n
  if (!(ok && p99 < 50)) broken[s] = 1
  if (ok && p99 < 50 && !broken[s] && n > best[s]) { best[s] = n; bestp99[s] = p99; bestrss[s] = val($0, "rss_per_session_kib"); bestcores[s] = val($0, "server_cores"); bestsrv[s] = val($0, "server_key_to_frame_p99_le_ms"); beststeal[s] = val($0, "steal_pct") }
  if (first[s] == "") { first[s] = n; lp50[s] = val($0, "echo_p50_ms"); lp99[s] = val($0, "echo_p99_ms"); bpk[s] = val($0, "bytes_per_key_p50") "/" val($0, "bytes_per_key_p90"); fs[s] = val($0, "first_screen_bytes") " + " val($0, "game_screen_bytes") }
  if (n == 500) { c500[s] = val($0, "server_cores"); r500[s] = val($0, "rss_per_session_kib") }
  if (val($0, "idle_cpu_per_session_us") != "") { idle[s] = val($0, "idle_cpu_per_session_us"); idleabove[s] = val($0, "idle_cpu_per_session_above_empty_us"); idlesteal[s] = val($0, "idle_steal_pct") }
  if (broken[s] && nextp99[s] == "") nextp99[s] = n ": p99 " p99
  last[s] = n; lastp99[s] = p99
}
function nx(k) { return (nextp99[k] != "") ? "; next step " nextp99[k] " ms" : "; no step over" }
function held(k) { return (best[k] == "") ? "none (first step " nextp99[k] " ms)" : best[k] " (p99 " bestp99[k] " ms" nx(k) ")" }
function later(k) { return (passed[k] > best[k]) ? "; a later step under 50 ms: " passed[k] : "" }
END {
  printf "| | sshuffle | bare Wish + Bubble Tea |\n|---|---|---|\n"
  printf "| sessions at key-echo p99 < 50 ms, one core (every step up to it) | %s%s | %s%s |\n", held("s"), later("s"), held("b"), later("b")
  printf "| ratio | %.2fx the bare server | |\n", (best["b"] > 0 ? best["s"] / best["b"] : 0)
  if (last["s2"] != "") {
    printf "| sessions at key-echo p99 < 50 ms, both cores, the load generator beside it | %s%s | %s%s |\n", held("s2"), later("s2"), held("b2"), later("b2")
  }
  printf "| (the server'"'"'s own key-to-frame p99 there, a histogram bound) | <= %s ms | |\n", bestsrv["s"]
  printf "| server CPU at 500 sessions | %s cores | %s cores |\n", c500["s"], c500["b"]
  printf "| server CPU at the most sessions under 50 ms | %s cores | %s cores |\n", bestcores["s"], bestcores["b"]
  printf "| memory per session (RSS, in game) at 500 / at the most | %s / %s KiB | %s / %s KiB |\n", r500["s"], bestrss["s"], r500["b"], bestrss["b"]
  printf "| idle CPU per session, in game (%s sessions) | %s µs/s | %s µs/s |\n", idleat, idle["s"], idle["b"]
  printf "| the same above the server with no session | %s µs/s | %s µs/s |\n", idleabove["s"], idleabove["b"]
  printf "| key echo at light load (%s sessions) p50 / p99 | %s / %s ms | %s / %s ms |\n", first["s"], lp50["s"], lp99["s"], lp50["b"], lp99["b"]
  printf "| bytes per cursor move p50/p90 | %s | %s |\n", bpk["s"], bpk["b"]
  printf "| CPU time stolen by the host (%%, cpu:share) at the most / while idle | %s / %s | %s / %s |\n", beststeal["s"], idlesteal["s"], beststeal["b"], idlesteal["b"]
  printf "| first screen (menu + game; bare: its board) bytes | %s | %s |\n", fs["s"], fs["b"]
}' "$work/sshuffle.out" "$work/bare.out" $(ls "$work/sshuffle2.out" "$work/bare2.out" 2>/dev/null)
