package klondike

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// playedPositions are positions reached in play of deals 1-n: every third
// position of the solver's winning line of a won deal, and of a game that
// follows the hints of a deal the solver does not win (up to 300 moves),
// so early, middle and late positions of won and lost games alike.
func playedPositions(tb testing.TB, variant string, n uint64) []*Game {
	tb.Helper()
	var out []*Game
	for seed := uint64(1); seed <= n; seed++ {
		spec := engine.Spec{Game: "klondike", Variant: variant, Seed: seed}
		g, err := New(spec)
		require.NoError(tb, err)
		r := Solve(spec, 200_000)
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
			if i%3 == 0 {
				out = append(out, g.clone())
			}
			require.NoError(tb, g.Do(a), "deal %d move %d", seed, i)
		}
	}
	return out
}

// hintTimes times a fresh hint from each position and reports the 99th
// percentile and the worst, in ms, and how many positions had none.
func hintTimes(b *testing.B, games []*Game) {
	var took []time.Duration
	empty := 0
	for b.Loop() {
		took, empty = took[:0], 0
		for _, g := range games {
			t := time.Now()
			_, _, ok := g.Hint()
			took = append(took, time.Since(t))
			if !ok {
				empty++
			}
		}
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	b.ReportMetric(float64(len(games)), "positions")
	b.ReportMetric(ms(took[len(took)*99/100]), "p99-ms")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms")
	b.ReportMetric(float64(empty), "empty")
}

// BenchmarkHint times a hint from positions of deals 1-40 in each draw:
//
//	go test -run '^$' -bench Hint -benchtime 1x ./games/klondike/
func BenchmarkHint(b *testing.B) {
	for _, v := range []string{"draw1", "draw3"} {
		b.Run(v, func(b *testing.B) { hintTimes(b, playedPositions(b, v, 40)) })
	}
}
