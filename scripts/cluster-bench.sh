#!/usr/bin/env bash
# The cluster measured (issue 26), one part after the other; reports/cluster.md
# keeps a run. Not part of `make test`.
#   1. a move's trip to another seat's screen, same node vs across nodes
#      (BenchmarkMoveTrip: in-process nodes on a three-server NATS cluster);
#   2. sessions held by three nodes (make cluster's, each its own process)
#      against one node on Badger, at the same total, with sshuffle-load;
#   3. (STORE=1) RecordResult on Badger and NATS, and (STALL=1) the write
#      stall of a killed NATS leader: both as reports/nats-store.md has them;
#      with STALL=1 too, two people playing a table across two node
#      processes while the leader of the snapshots' stream is killed
#      (TestTableMovesThroughLeaderStall): how long their moves wait to reach
#      the other screen, and that every move shown is stored.
#   bash scripts/cluster-bench.sh
#   SESSIONS=300 DURATION=20s STORE=1 STALL=1 bash scripts/cluster-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
TRIPS=${TRIPS:-300}          # moves timed in each of same node and across
SESSIONS=${SESSIONS:-300}    # sessions in all, split over the three nodes
DURATION=${DURATION:-20s}    # sshuffle-load's measuring window
DIR=$(mktemp -d /tmp/sshuffle-cluster-bench.XXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$DIR"
}
trap cleanup EXIT

echo "## commit $(git rev-parse --short HEAD), $(date -u +%FT%TZ), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "### 1. a move's trip to another seat's screen"
$GO test ./arcade/hub/natsrelay -run '^$' -bench MoveTrip -benchtime "${TRIPS}x" | grep -E '^Benchmark|^ok'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "### 2. sessions: three nodes against one"
$GO build -o "$DIR/sshuffle-load" ./cmd/sshuffle-load
$GO build -o "$DIR/sshuffle" ./cmd/sshuffle
per=$((SESSIONS / 3))
limits="--max-sessions 6000 --max-per-addr 6000 --start-timeout 2m --fill-pools=false"
NODE_ARGS="$limits" CLUSTER_DIR="$DIR/cluster" SSHUFFLE_PORT=3222 NATS_PORT=5222 ROUTE_PORT=7222 bash scripts/cluster.sh >"$DIR/cluster.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do grep -q "Ctrl-C stops" "$DIR/cluster.log" && break; sleep 0.2; done
grep -q "Ctrl-C stops" "$DIR/cluster.log" || { cat "$DIR/cluster.log"; exit 1; }
for i in 0 1 2; do
	"$DIR/sshuffle-load" -addr "127.0.0.1:$((3222 + i))" -sessions "$per" -duration "$DURATION" -label "node$((i + 1))-of-3" &
	lp+=($!)
done
wait "${lp[@]}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
kill -TERM "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true; pids=()
"$DIR/sshuffle" serve --addr 127.0.0.1:3230 --data "$DIR/one" $limits >"$DIR/one.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do grep -q "msg=listening" "$DIR/one.log" && break; sleep 0.2; done
"$DIR/sshuffle-load" -addr 127.0.0.1:3230 -sessions "$SESSIONS" -duration "$DURATION" -label "one-node-badger" -pid "${pids[0]}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "${STORE:-0}" = 1 ]; then
	echo
	echo "### 3a. RecordResult, Badger against NATS"
	$GO test ./store/nats -run '^$' -bench RecordResult -benchtime 1000x | grep -E '^Benchmark|^ok'
fi
if [ "${STALL:-0}" = 1 ]; then
	echo
	echo "### 3b. a NATS leader killed under the writes"
	$GO test ./store/nats -run TestLeaderKilledStall -stall -v | grep -E 'stall_test|^ok|^---'
	echo
	echo "### 3c. a NATS leader killed under two people's moves at a table across nodes"
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	$GO test ./cmd/sshuffle -run TestTableMovesThroughLeaderStall -tablestall -count=1 -v | grep -E 'stall_test|^ok|^---'
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
