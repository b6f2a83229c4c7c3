package klondike

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"sshuffle/engine"
)

// TestProbe solves chosen deals for looking into one, e.g.
// PROBE="draw1:47 draw3:12" PROBE_NODES=2000000 go test -run Probe -v ./games/klondike/
func TestProbe(t *testing.T) {
	seeds := os.Getenv("PROBE")
	if seeds == "" {
		t.Skip()
	}
	nodes, _ := strconv.Atoi(os.Getenv("PROBE_NODES"))
	for _, f := range strings.Fields(seeds) {
		v, sd, _ := strings.Cut(f, ":")
		seed, _ := strconv.Atoi(sd)
		t0, c0 := time.Now(), cpuTime()
		threads, _ := strconv.Atoi(os.Getenv("PROBE_THREADS"))
		r := SolveOn(engine.Spec{Game: "klondike", Variant: v, Seed: uint64(seed)}, nodes, max(threads, 1))
		fmt.Println(v, seed, r.Outcome, r.Nodes, time.Since(t0), cpuTime()-c0)
	}
}
