package gametest

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// PlayedPositions are positions reached in play of the given specs' deals:
// every every-th position of the solver's winning line of a won deal, and
// of a game that follows the hints of a deal the solver does not win (up
// to 300 moves), so early, middle and late positions of won and lost games
// alike. open deals a spec, solve solves it, keep copies a position.
func PlayedPositions[G engine.Solitaire](tb testing.TB, specs []engine.Spec, every int,
	open func(engine.Spec) (G, error), solve func(engine.Spec) engine.Result[engine.Action], keep func(G) G) []G {
	tb.Helper()
	var out []G
	for _, spec := range specs {
		g, err := open(spec)
		require.NoError(tb, err)
		r := solve(spec)
		for i := 0; !g.Won() && i < 300; i++ {
			a, ok := engine.Action{}, false
			if r.Outcome == engine.Solved {
				if ok = i < len(r.Moves); ok {
					a = r.Moves[i]
				}
			} else {
				a, _, ok = g.Hint()
			}
			if !ok {
				break
			}
			if i%every == 0 {
				out = append(out, keep(g))
			}
			require.NoError(tb, g.Do(a), "deal %d move %d", spec.Seed, i)
		}
	}
	return out
}

// Specs are the specs of deals 1-n of a game's variant.
func Specs(game, variant string, n uint64) []engine.Spec {
	out := make([]engine.Spec, 0, n)
	for seed := uint64(1); seed <= n; seed++ {
		out = append(out, engine.Spec{Game: game, Variant: variant, Seed: seed})
	}
	return out
}

// HintTimes times a fresh hint from each of n positions (hint(i) says
// whether position i has one) and reports how many there were, the 99th
// percentile and the worst in ms, and how many had no hint: a hint's time
// is reported by its benchmark, never asserted in a test.
func HintTimes(b *testing.B, n int, hint func(i int) bool) {
	b.Helper()
	took := make([]time.Duration, 0, n)
	empty := 0
	for b.Loop() {
		took, empty = took[:0], 0
		for i := range n {
			t := time.Now()
			ok := hint(i)
			took = append(took, time.Since(t))
			if !ok {
				empty++
			}
		}
	}
	if len(took) == 0 {
		b.Fatal("no position to take a hint from")
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	b.ReportMetric(float64(n), "positions")
	b.ReportMetric(ms(took[len(took)*99/100]), "p99-ms")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms")
	b.ReportMetric(float64(empty), "empty")
}
