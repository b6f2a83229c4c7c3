package spider

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

func replayWins(t *testing.T, spec engine.Spec, moves []engine.Action) {
	t.Helper()
	g, err := New(spec)
	require.NoError(t, err)
	for i, a := range moves {
		require.NoError(t, g.Do(a), "move %d", i)
	}
	require.True(t, g.Won())
}

func TestSolveReplays(t *testing.T) {
	solved := 0
	for seed := uint64(1); seed <= 6; seed++ {
		for _, v := range []string{"1suit", "2suit"} {
			spec := engine.Spec{Game: "spider", Variant: v, Seed: seed}
			res := Solve(spec, 50_000)
			if res.Outcome == engine.Solved {
				solved++
				replayWins(t, spec, res.Moves)
			}
		}
	}
	require.Greater(t, solved, 0)
}

// TestSolveRates measures win rates; it runs only when asked:
// SPIDER_RATES=1suit:1:100:200000 go test -run TestSolveRates -v ./games/spider/
// (variant:first seed:count:node budget).
func TestSolveRates(t *testing.T) {
	arg := os.Getenv("SPIDER_RATES")
	if arg == "" {
		t.Skip("set SPIDER_RATES=variant:first:count:nodes")
	}
	var v string
	var first, count, nodes int
	_, err := fmt.Sscanf(arg, "%5s:%d:%d:%d", &v, &first, &count, &nodes)
	require.NoError(t, err)
	outcomes := map[engine.Outcome]int{}
	var total, worst time.Duration
	for s := first; s < first+count; s++ {
		spec := engine.Spec{Game: "spider", Variant: v, Seed: uint64(s)}
		t0 := time.Now()
		w := defaultWeights
		if v != "1suit" {
			w.row = 30
		}
		if ws := os.Getenv("SPIDER_W"); ws != "" {
			_, err := fmt.Sscanf(ws, "%d,%d,%d,%d,%d,%d", &w.down, &w.block, &w.cross, &w.row, &w.run, &w.empty)
			require.NoError(t, err)
		}
		if ws := os.Getenv("SPIDER_BURIED"); ws != "" {
			w.buried, _ = strconv.Atoi(ws)
		}
		if os.Getenv("SPIDER_SPLIT") != "" {
			w.splits = true
		}
		g, _ := New(spec)
		res := solveWith(g, nodes, w)
		d := time.Since(t0)
		total += d
		worst = max(worst, d)
		outcomes[res.Outcome]++
		if res.Outcome == engine.Solved {
			replayWins(t, spec, res.Moves)
		}
		if os.Getenv("SPIDER_VERBOSE") != "" {
			t.Logf("seed %d: %v nodes %d moves %d %v", s, res.Outcome, res.Nodes, len(res.Moves), d)
		}
	}
	t.Logf("%s seeds %d..%d budget %s: solved %d, impossible %d, undecided %d; mean %v, worst %v per deal",
		v, first, first+count-1, strconv.Itoa(nodes), outcomes[engine.Solved], outcomes[engine.Impossible],
		outcomes[engine.Undecided], total/time.Duration(count), worst)
}
