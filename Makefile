GO ?= go

.PHONY: run test build vet fmt bench-solve cluster bench-store

# Built first and run as make's own child (not under go run, which does
# not pass SIGTERM on): a process manager's or a shell's SIGTERM to make
# reaches the server, which closes the store.
run: build
	exec ./bin/sshuffle serve --addr :2222 --data ./data

build:
	$(GO) build -o bin/sshuffle ./cmd/sshuffle

# Three NATS JetStream servers and three sshuffle nodes on them, on
# loopback (ssh -p 2222, 2223, 2224 localhost); logs and data in ./cluster.
# Ctrl-C stops them all. docs/operating.md says how to run it for real.
cluster:
	GO=$(GO) bash scripts/cluster.sh

# Every test, with the race detector; gofmt, vet and staticcheck first so a
# style slip fails as loudly as a broken rule. staticcheck is a tool
# dependency in go.mod: it needs nothing but Go (staticcheck.conf says why
# player-facing error sentences are capitalised). The tests build without
# cmd/sshuffle's profile (default.pgo): it changes no result, and with it
# every package that command's tests use is compiled twice, once for them
# and once for the rest (a clean clone's run took 12 minutes instead of 7).
test:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) test -race -pgo=off -timeout 15m ./...

# The solver reports (reports/*.txt; reports/solvers.md quotes them). Takes a while.
bench-solve:
	bash scripts/bench-solve.sh
