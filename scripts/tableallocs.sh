#!/usr/bin/env bash
# What a table move allocates, piece by piece, from Go benchmarks (bytes
# and allocations a piece do not depend on the machine's load; the times
# do). A move at a Kings table of two people, two computers and a watcher
# is: the room's action, state and save (BenchmarkTableFanout/saves=true),
# the snapshot's JSON (BenchmarkEncodeSnapshot), each of the three screens
# taking the state and drawing (BenchmarkTableFrame/kings/take), and a
# computer's choice (BenchmarkNormalDecision). Not part of `make test`.
#   bash scripts/tableallocs.sh > /tmp/allocs.txt
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-3}
bench() { nice -n 10 go test -run '^$' -bench "$1" -benchmem -count "$COUNT" "$2" | grep '^Benchmark'; }
echo "commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
bench 'BenchmarkTableFrame/.*/(move|take|clock)/view' ./arcade/ui/table/
bench 'BenchmarkTableFanout' ./arcade/hub/
bench 'BenchmarkEncodeSnapshot' ./arcade/
bench 'BenchmarkNormalDecision|BenchmarkHardDecision' ./games/kings/
bench 'BenchmarkHardDecision' ./games/spite/
