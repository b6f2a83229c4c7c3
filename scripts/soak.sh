#!/usr/bin/env bash
# Soak: honest sessions play while one hostile client tries one thing at a
# time (sshuffle-load --hostile-list names them), and a newcomer logs in
# every second. For each item: the honest players' key echo p99, the
# newcomers' slowest first screen and failed logins, the server's RSS; at
# the end its peak RSS, whether it is still up, and its refusal counters.
# Not part of `make test`.
#   SESSIONS=200 DURATION=40s bash scripts/soak.sh
#   ITEMS="8 9" bash scripts/soak.sh          # only those items
# Exit 1 when an item missed a goal: echo p99 50 ms, every login answered
# within 2 s, peak RSS 300 MB, the server up.
set -euo pipefail
SESSIONS=${SESSIONS:-200}
DURATION=${DURATION:-40s}
RAMP=${RAMP:-10s}
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
kb() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$pid/status"; }
sleep 3
echo "server pid $pid; RSS before: $(kb VmRSS) kB; $SESSIONS honest sessions, $DURATION an item"
items=${ITEMS:-$("$work/sshuffle-load" --hostile-list | cut -d- -f1)}
failed=0
printf '%-22s %12s %10s %14s %12s %10s\n' item echo_p99_ms logins login_max_ms login_failed rss_mb
for item in $items; do
	set +e
	out=$("$work/sshuffle-load" --addr "127.0.0.1:$port" --sessions "$SESSIONS" --ramp "$RAMP" --duration "$DURATION" \
		--every 2s --spread --hostile --hostile-only "$item" --login-probe 1s 2>>"$work/load.err")
	set -e
	step=$(grep '^step' <<<"$out" | tail -1)
	val() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$step"; }
	name=$(sed -n 's/^hostile tries completed: \([^=]*\)=.*/\1/p' <<<"$out")
	up=$(kill -0 "$pid" 2>/dev/null && echo yes || echo no)
	rss=$([ "$up" = yes ] && awk "BEGIN {printf \"%.0f\", $(kb VmRSS)/1024}" || echo -)
	printf '%-22s %12s %10s %14s %12s %10s\n' "${name:-$item}" "$(val echo_p99_ms)" "$(val logins)" "$(val login_max_ms)" "$(val login_failed)" "$rss"
	if [ "$up" != yes ]; then
		echo "the server is down after item $item"; failed=1; break
	fi
	if [ -z "$step" ] || awk -v p="$(val echo_p99_ms)" -v m="$(val login_max_ms)" -v f="$(val login_failed)" \
		'BEGIN {exit !(p > 50 || m > 2000 || f > 0)}'; then
		failed=1
	fi
done
peak=$(kb VmHWM)
echo "peak RSS: $((peak / 1024)) MB; server still running: $(kill -0 "$pid" 2>/dev/null && echo yes || echo NO)"
[ "$peak" -le $((300 * 1024)) ] || failed=1
echo "metrics:"; curl -s "127.0.0.1:$mport/metrics" | grep -E '^sshuffle_(refused_total|connections_closed_total|input_dropped_total|search_seconds_count|sessions)' || true
echo "server log: $(grep -c . "$work/server.log") lines, $(grep -c level=ERROR "$work/server.log") errors, $(grep -c level=WARN "$work/server.log") warnings"
grep -E 'level=(ERROR|WARN)' "$work/server.log" | cut -c1-200 | sort | uniq -c | sort -rn | head -8 || true
exit $failed
