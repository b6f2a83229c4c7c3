#!/usr/bin/env bash
# Live play under load: races of four, Kings tables of two load people and
# two computers, and Spite tables of two load people, the tables with
# watchers, each ramped in steps until a move's p99
# to the other screens passes 50 ms; then both kinds of table at once
# (MIXED_STEPS, K:S a step: K Kings and S Spite tables opened interleaved
# over one ramp against one server and measured over one window, the row
# giving the p99 over every move and each kind's, and failing when either
# kind's p99 passes the goal or any table fails); then still tables
# (IDLE_STEPS), seated and started with nobody moving, for the server's
# idle CPU per person and memory per session. Every step runs against a
# fresh server (tables whose people left keep their computers playing, and
# would load the next step), pinned to one core with GOMAXPROCS=1 as
# capacity.sh does, the load generator pinned to the other. Each step's
# result line says whose CPU was what (the server's, the generator's) and
# the host's steal per core. Writes reports/liveload.md (or OUT), headed by
# the command and the commit. Not part of `make test`.
#   bash scripts/liveload.sh
#   RACE_STEPS=10,20 TABLE_STEPS=5,10 SPITE_STEPS=5 MIXED_STEPS=10:5 DURATION=10s bash scripts/liveload.sh
#   RACE_STEPS= TABLE_STEPS= SPITE_STEPS= IDLE_STEPS= MIXED_STEPS=400:200 bash scripts/liveload.sh   (the table goal alone)
#   RACE_STEPS= TABLE_STEPS= SPITE_STEPS= MIXED_STEPS= IDLE_STEPS=100,400 bash scripts/liveload.sh   (the still tables alone)
set -euo pipefail
cd "$(dirname "$0")/.."
RACE_STEPS=${RACE_STEPS-50,100,200,300,400,500}  # races of RACERS
TABLE_STEPS=${TABLE_STEPS-40,80,160,240,320,400} # Kings tables
SPITE_STEPS=${SPITE_STEPS-50,100,200}            # Spite tables
MIXED_STEPS=${MIXED_STEPS-200:100,300:150,400:200} # Kings:Spite tables at once on one server
IDLE_STEPS=${IDLE_STEPS-100,400}   # still tables (two people each, and WATCHERS): 200 and 800 people
IDLE_GAME=${IDLE_GAME:-spite}      # spite, or kings (two computers at each table too, whose first turns may reach into the window)
IDLE_SETTLE=${IDLE_SETTLE:-$([ "$IDLE_GAME" = kings ] && echo 8s || echo 2s)} # after the last table starts (Kings: the computers' first turns)
IDLE_DURATION=${IDLE_DURATION:-20s} # measured; ramp + settle + this must stay under the 60 s turn clock
RACERS=${RACERS:-4}
WATCHERS=${WATCHERS:-1}  # watchers at each table
THINK=${THINK:-3s}       # a person's turn lasts up to this: the clocks tick
EVERY=${EVERY:-2s}       # a racer moves this often
RAMP_PER_ROOM=${RAMP_PER_ROOM:-50ms} # rooms are opened this far apart
DURATION=${DURATION:-30s} # measured after the ramp
STOP_P99_MS=${STOP_P99_MS:-50}
GOMEMLIMIT_SERVER=${GOMEMLIMIT_SERVER:-4GiB}
GOGC_SERVER=${GOGC_SERVER:-200}
SERVER_CPU=${SERVER_CPU:-1}
LOAD_CPU=${LOAD_CPU:-0}
OUT=${OUT:-reports/liveload.md}
# Every session comes from loopback and a room's people arrive together:
# the server's caps are raised (--max-startups would otherwise drop logins
# that overlap, as it does a flood from one host).
# SSHUFFLE_BIN: a server binary to run instead of building ./cmd/sshuffle.

work=$(mktemp -d)
pid=""
stop() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi; }
trap 'stop; rm -rf "$work"' EXIT
if [ -n "${SSHUFFLE_BIN:-}" ]; then cp "$SSHUFFLE_BIN" "$work/sshuffle"; else go build -o "$work/sshuffle" ./cmd/sshuffle; fi
go build -o "$work/sshuffle-load" ./cmd/sshuffle-load

wait_listen() { # port log
  for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "liveload.sh: the server did not start; its log:" >&2; cat "$2" >&2; exit 1
}

# ms DURATION: milliseconds in a Go duration such as 50ms or 2s.
ms() { case $1 in *ms) echo "${1%ms}" ;; *s) echo $(( ${1%s} * 1000 )) ;; *) echo "$1" ;; esac; }

# serve PORT [flags]: a fresh server, pinned, in the background (pid).
serve() {
  local port=$1; shift
  rm -rf "$work/data"
  taskset -c "$SERVER_CPU" env GOMEMLIMIT="$GOMEMLIMIT_SERVER" GOMAXPROCS=1 GOGC="$GOGC_SERVER" \
    "$work/sshuffle" serve --addr "127.0.0.1:$port" --data "$work/data" --fill-pools=false \
    --max-sessions 20000 --max-per-addr 20000 --max-channels-per-conn 4 --start-timeout 2m --max-startups 2000:30:4000 "$@" 2>"$work/server.log" &
  pid=$!
  wait_listen "$port" "$work/server.log"
  sleep 1
}

# step KIND N, then the load generator's mode flags: one fresh server, one run.
step() {
  local kind=$1 n=$2; shift 2
  local port=$(( 20000 + RANDOM % 12000 )) ramp
  ramp="$(( n * $(ms "$RAMP_PER_ROOM") ))ms"
  serve "$port"
  taskset -c "$LOAD_CPU" "$work/sshuffle-load" -addr "127.0.0.1:$port" -pid "$pid" -ramp "$ramp" -duration "$DURATION" \
    "$@" >"$work/out" 2>"$work/err" || true
  stop
  local line
  line=$(grep '^result ' "$work/out" || echo "result kind=$kind rooms=$n no-result")
  echo "$line" | tee -a "$work/lines"
  if [ -s "$work/err" ]; then echo "  ($(grep -c . "$work/err") error lines; first: $(head -1 "$work/err"))" | tee -a "$work/lines"; fi
  # Past the goal (over every move, or any kind's own in a mixed step), or
  # broken: stop ramping this kind.
  local p99s
  p99s=$(echo "$line" | grep -o '[a-z_]*p99_ms=[0-9.]*' | sed 's/.*=//')
  [ -n "$p99s" ] && echo "$p99s" | awk -v s="$STOP_P99_MS" '$1 > s { bad = 1 } END { exit bad }' &&
    ! echo "$line" | grep -q 'failed=[1-9]\|missed=[1-9]'
}

{
  echo "$ bash scripts/liveload.sh   (RACE_STEPS=$RACE_STEPS TABLE_STEPS=$TABLE_STEPS SPITE_STEPS=$SPITE_STEPS MIXED_STEPS=$MIXED_STEPS RACERS=$RACERS WATCHERS=$WATCHERS THINK=$THINK EVERY=$EVERY RAMP_PER_ROOM=$RAMP_PER_ROOM DURATION=$DURATION IDLE_STEPS=$IDLE_STEPS IDLE_GAME=$IDLE_GAME IDLE_SETTLE=$IDLE_SETTLE IDLE_DURATION=$IDLE_DURATION)"
  echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)'), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "server on core $SERVER_CPU (GOMAXPROCS=1 GOGC=$GOGC_SERVER GOMEMLIMIT=$GOMEMLIMIT_SERVER), a fresh one each step; load generator on core $LOAD_CPU"
} | tee "$work/head"

: >"$work/lines"
for n in ${RACE_STEPS//,/ }; do
  step race "$n" -races "$n" -racers "$RACERS" -every "$EVERY" || break
done
for n in ${TABLE_STEPS//,/ }; do
  step kings "$n" -tables "$n" -game kings -watchers "$WATCHERS" -think "$THINK" || break
done
for n in ${SPITE_STEPS//,/ }; do
  step spite "$n" -tables "$n" -game spite -watchers "$WATCHERS" -think "$THINK" || break
done
for ks in ${MIXED_STEPS//,/ }; do
  [[ $ks =~ ^([0-9]+):([0-9]+)$ ]] || { echo "liveload.sh: MIXED_STEPS wants Kings:Spite table counts such as 400:200, not $ks" >&2; exit 2; }
  k=${BASH_REMATCH[1]} s=${BASH_REMATCH[2]}
  step kings+spite "$(( k + s ))" -mix "kings:$k,spite:$s" -watchers "$WATCHERS" -think "$THINK" || break
done

# idle_step N: N still tables on a fresh server with its debug listener
# (the load generator reads its live heap and goroutines there).
: >"$work/idle"
idle_step() {
  local n=$1 port=$(( 20000 + RANDOM % 12000 )) ramp
  local dport=$(( port + 1 ))
  ramp="$(( n * $(ms "$RAMP_PER_ROOM") ))ms"
  serve "$port" --debug-addr "127.0.0.1:$dport"
  taskset -c "$LOAD_CPU" "$work/sshuffle-load" -addr "127.0.0.1:$port" -pid "$pid" -ramp "$ramp" -settle "$IDLE_SETTLE" -duration "$IDLE_DURATION" \
    -tables "$n" -game "$IDLE_GAME" -watchers "$WATCHERS" -still -debug "http://127.0.0.1:$dport" >"$work/out" 2>"$work/err" || true
  stop
  local line
  line=$(grep '^result ' "$work/out" || echo "result kind=still-$IDLE_GAME rooms=$n no-result")
  echo "$line" | tee -a "$work/idle"
  if [ -s "$work/err" ]; then echo "  ($(grep -c . "$work/err") error lines; first: $(head -1 "$work/err"))" | tee -a "$work/idle"; fi
}
for n in ${IDLE_STEPS//,/ }; do
  idle_step "$n"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$work/lines"

mkdir -p "$(dirname "$OUT")"
{
  head -1 "$work/head"; echo; tail -n +2 "$work/head" | sed 's/^/    /'
  echo
  if grep -q '^result ' "$work/lines"; then
    echo "Each step: a fresh server, rooms opened $RAMP_PER_ROOM apart, then $DURATION measured. p50/p90/p99: a move's key to the write that"
    echo "shows it on another screen (every other racer; at a table, the other seat and the watchers), read on the receiving side. move_bytes: what"
    echo "each other screen read from the key to that write; tick_bytes: writes that only counted a turn clock down. loadgen_cores_window"
    echo "and server_cores_window: each process's CPU over the window after the ramp (its threads' run time from /proc/PID/task/*/schedstat, to the nanosecond) (the generator's share is its own, not the server's);"
    echo "steal_pct: the host's steal per core over that window; server run-queue wait: time a second the server's threads were ready"
    echo "but waited for their core (other work on it, or its own threads); loadgen worst stall: the generator's own worst hold-up (a"
    echo "5 ms timer's lateness), by which any latency timed then is late without the server being slow. A step past p99 $STOP_P99_MS ms,"
    echo "or with a failure, ends its kind's ramp. kings+spite (MIXED_STEPS): both kinds of table on one server at once, opened interleaved"
    echo "over one ramp; its p99 is over every move, each kind's own in brackets, and it fails when either does. window p99: the same"
    echo "of the keys sent in the measured window alone (p50/p90/p99 have the ramp's moves too, while sessions log in). People: load sessions"
    echo "seated or racing (the Kings tables' two computers are not sessions); RSS a session: the server's resident memory at the"
    echo "window's end above a fresh server's, over the sessions (GOGC=$GOGC_SERVER: garbage not yet collected is in it too)."
    echo
    awk '
    function val(line, key) { if (match(line, " " key "=[^ ]+")) return substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2); return "" }
    BEGIN { print "| kind | rooms | people / watchers / sessions | p50 / p90 / p99 ms | window p99 ms | move bytes p50/p90 | tick bytes p50/p90 | server cores | loadgen cores | server RSS MiB (KiB a session) | server run-queue wait ms/s | loadgen worst stall ms | steal % | failed / missed |"; print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" }
    /^result / {
      k = val($0, "kind"); n = val($0, "rooms"); p99 = val($0, "p99_ms"); wp99 = val($0, "window_p99_ms")
      nk = split(k, kinds, "+")
      if (nk > 1) {
        rooms = ""; each = ""; weach = ""
        for (i = 1; i <= nk; i++) {
          rooms = rooms (i > 1 ? " + " : "") val($0, kinds[i] "_rooms")
          each = each (i > 1 ? ", " : "") kinds[i] " " val($0, kinds[i] "_p99_ms")
          weach = weach (i > 1 ? ", " : "") kinds[i] " " val($0, kinds[i] "_window_p99_ms")
        }
        n = rooms; p99 = p99 " (" each ")"; wp99 = wp99 " (" weach ")"
      }
      printf "| %s | %s | %s / %s / %s | %s / %s / %s | %s | %s / %s | %s / %s | %s | %s | %s (%s) | %s | %s | %s | %s / %s |\n", k, n,
        val($0, "people"), val($0, "watchers"), val($0, "sessions"),
        val($0, "p50_ms"), val($0, "p90_ms"), p99, wp99, val($0, "move_bytes_p50"), val($0, "move_bytes_p90"),
        val($0, "tick_bytes_p50"), val($0, "tick_bytes_p90"), val($0, "server_cores_window"), val($0, "loadgen_cores_window"),
        val($0, "server_rss_mib"), val($0, "server_rss_per_session_kib"), val($0, "server_runq_wait_ms_per_s"), val($0, "loadgen_stall_max_ms"), val($0, "steal_pct"), val($0, "failed"), val($0, "missed")
    }' "$work/lines"
    echo
  fi
  if [ -s "$work/idle" ]; then
    echo
    echo "Still tables ($IDLE_GAME, two people and $WATCHERS watchers each; IDLE_STEPS=$IDLE_STEPS): seated and started, then nobody moves"
    echo "for $IDLE_DURATION while every screen's turn clock ticks, $IDLE_SETTLE after the last table started. Every figure is the"
    echo "server's: its CPU a second per person seated (and per session, people and watchers), above the server's own with no"
    echo "session (measured for 3 s first); its resident memory, its live heap after a collection, its goroutine stacks and goroutines, each per"
    echo "session above the figure before the first session (GOGC=$GOGC_SERVER: the resident memory holds garbage not yet collected too)."
    echo "turns changed: tables whose turn passed in the window (a turn clock ran out): nonzero means the window was not idle."
    echo
    awk '
    function val(line, key) { if (match(line, " " key "=[^ ]+")) return substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2); return "" }
    BEGIN { print "| tables | people | sessions | server CPU µs/s a person (above empty) | a session | server RSS KiB a session | live heap KiB a session | stacks KiB a session | goroutines a session | tick bytes p50/p90, bytes/s a session | turns changed | loadgen cores | steal % | failed |"; print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" }
    /^result / {
      printf "| %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s / %s, %s | %s | %s | %s | %s |\n", val($0, "rooms"), val($0, "people"), val($0, "sessions"),
        val($0, "server_cpu_us_per_s_per_person"), val($0, "server_cpu_above_empty_us_per_s_per_person"), val($0, "server_cpu_us_per_s_per_session"),
        val($0, "server_rss_per_session_kib"), val($0, "server_heap_per_session_kib"), val($0, "server_stack_per_session_kib"), val($0, "server_goroutines_per_session"),
        val($0, "tick_bytes_p50"), val($0, "tick_bytes_p90"), val($0, "tick_bytes_per_s_per_session"), val($0, "turns_changed"),
        val($0, "loadgen_cores_window"), val($0, "steal_pct"), val($0, "failed")
    }' "$work/idle"
  fi
  echo
  echo "The result lines:"
  echo
  sed 's/^/    /' "$work/lines" "$work/idle"
} >"$OUT"
echo "wrote $OUT"
