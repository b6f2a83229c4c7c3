package freecell

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

// playedPositions are positions reached in play: every fourth position on
// the solver's winning line of each deal, hard deals (13996 was the
// slowest of 1-32000, 178 and 1647 slow ones) among ordinary ones.
func playedPositions(tb testing.TB, deals []uint64) []*Game {
	tb.Helper()
	var out []*Game
	for _, n := range deals {
		r := Solve(spec(n), testBudget)
		require.Equal(tb, engine.Solved, r.Outcome, "deal %d", n)
		g, err := New(spec(n))
		require.NoError(tb, err)
		for i, a := range r.Moves {
			if i%4 == 0 {
				c := *g
				c.plan = nil
				out = append(out, &c)
			}
			require.NoError(tb, g.Do(a))
		}
	}
	return out
}

// On a hard deal the hint budget finds a move from every position of a
// winning line.
func TestHintOnHardDeal(t *testing.T) {
	if testing.Short() {
		t.Skip("solves deal 13996 from many positions")
	}
	for _, g := range playedPositions(t, []uint64{13996}) {
		_, _, ok := g.Hint()
		require.True(t, ok, "no hint at move %d", g.Moves())
	}
}

// BenchmarkHint times a fresh hint (no plan kept) from positions reached
// in play and reports the 99th percentile and the worst, in ms:
//
//	go test -run '^$' -bench Hint -benchtime 1x ./games/freecell/
func BenchmarkHint(b *testing.B) {
	deals := []uint64{13996, 178, 1647, 11981, 11983}
	for n := uint64(1); n <= 40; n++ {
		deals = append(deals, n*797)
	}
	games := playedPositions(b, deals)
	var took []time.Duration
	empty := 0
	for b.Loop() {
		took = took[:0]
		for _, g := range games {
			c := *g
			t := time.Now()
			_, _, ok := c.Hint()
			took = append(took, time.Since(t))
			if !ok {
				empty++
			}
		}
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(float64(len(games)), "positions")
	b.ReportMetric(ms(took[len(took)*99/100]), "p99-ms")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms")
	b.ReportMetric(float64(empty), "empty")
}
