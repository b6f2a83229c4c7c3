#!/usr/bin/env bash
# Remakes cmd/sshuffle/default.pgo, the CPU profile the Go toolchain builds
# cmd/sshuffle with (go build's -pgo=auto uses a default.pgo in the main
# package's folder, so `make run`, `go build ./cmd/sshuffle` and every
# script get it). The profile is of the Klondike Draw 3 search, the one
# solver whose goal is near the machine's speed: deals 1-1500 and the lost
# deal 3145 on the report's settings, taken from a build without a profile.
#
#   scripts/pgo.sh        about half a minute on a 2-core machine, after the build
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/sshuffle" ./cmd/sshuffle
solve() { "$tmp/sshuffle" solve klondike --draw 3 --workers 1 --threads 2 --nodes 3000000 "$@" >/dev/null; }
solve --deals 1-1500 --cpuprofile "$tmp/range.prof"
solve --deals 3145 --cpuprofile "$tmp/lost.prof"
go tool pprof -proto "$tmp/range.prof" "$tmp/lost.prof" > "$tmp/default.pgo"
mv "$tmp/default.pgo" cmd/sshuffle/default.pgo
echo "cmd/sshuffle/default.pgo: $(wc -c < cmd/sshuffle/default.pgo) bytes"
