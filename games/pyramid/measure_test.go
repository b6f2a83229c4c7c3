package pyramid

import (
	"os"
	"strconv"
	"testing"
	"time"

	"sshuffle/engine"
)

// TestMeasureSolver reports the solver's win rate and speed over seeds
// 1..$SOLVE_SEEDS with a budget of $SOLVE_NODES positions (default 1e6).
// It is skipped unless SOLVE_SEEDS is set; the timing is only printed.
//
//	SOLVE_SEEDS=1000 go test -run MeasureSolver -v ./games/pyramid/
func TestMeasureSolver(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SOLVE_SEEDS"))
	if n <= 0 {
		t.Skip("set SOLVE_SEEDS to measure")
	}
	budget := 1000000
	if b, err := strconv.Atoi(os.Getenv("SOLVE_NODES")); err == nil {
		budget = b
	}
	var counts [3]int
	nodes := 0
	var slowest time.Duration
	start := time.Now()
	for seed := 1; seed <= n; seed++ {
		t0 := time.Now()
		r := Solve(engine.Spec{Game: "pyramid", Seed: uint64(seed)}, budget)
		if d := time.Since(t0); d > slowest {
			slowest = d
		}
		counts[r.Outcome]++
		nodes += r.Nodes
	}
	el := time.Since(start)
	t.Logf("seeds 1..%d, budget %d: solved %d (%.1f%%), impossible %d, undecided %d; %.2f ms/deal mean, slowest %v, %d nodes/deal",
		n, budget, counts[engine.Solved], 100*float64(counts[engine.Solved])/float64(n),
		counts[engine.Impossible], counts[engine.Undecided],
		float64(el.Microseconds())/1000/float64(n), slowest.Round(time.Millisecond), nodes/n)
}
