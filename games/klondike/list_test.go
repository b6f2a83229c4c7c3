package klondike

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/reports"
)

// reportWon is the set of deals the kept report lists as won.
func reportWon(t testing.TB, v string) map[uint64]bool {
	r, ok := reports.For("klondike/" + v)
	require.True(t, ok, "no report for klondike/%s", v)
	won := map[uint64]bool{}
	for _, w := range r.Won {
		won[w] = true
	}
	return won
}

// A deal the kept report lists as won must never be proved lost: a pruning
// rule that does so is unsound. Forty deals of each variant, with lost ones
// among them, go through the whole search on a small budget, and deals
// 1-1000 through the check made before searching.
func TestNoWonDealProvedLost(t *testing.T) {
	seeds := uint64(40)
	if raceEnabled {
		seeds = 20
	}
	for v, first := range map[string]uint64{"draw1": 60, "draw3": 1} {
		won := reportWon(t, v)
		lost := 0
		for seed := first; seed < first+seeds; seed++ {
			spec := engine.Spec{Game: "klondike", Variant: v, Seed: seed}
			r := Solve(spec, 50_000)
			require.False(t, r.Outcome == engine.Impossible && won[seed], "%s deal %d: listed as won, the solver says impossible", v, seed)
			if r.Outcome == engine.Impossible {
				lost++
			}
		}
		require.Greater(t, lost, 0, "%s: some of deals %d-%d are lost", v, first, first+seeds-1)
		dead := 0
		for seed := uint64(1); seed <= 1000; seed++ {
			g, err := New(engine.Spec{Game: "klondike", Variant: v, Seed: seed})
			require.NoError(t, err)
			sv := &solver{draw: g.draw}
			s := fromGame(g)
			sv.auto(&s, nil)
			if sv.dead(&s) {
				dead++
				require.False(t, won[seed], "%s deal %d: listed as won, the start check says lost", v, seed)
			}
		}
		require.Greater(t, dead, 0, "%s: the start check proves some of deals 1-1000 lost", v)
	}
}

// BenchmarkSolveDeals solves deal 143 of Draw 3 once per iteration, for
// profiling.
func BenchmarkSolveDeals(b *testing.B) {
	for b.Loop() {
		Solve(engine.Spec{Game: "klondike", Variant: "draw3", Seed: 143}, DefaultNodes)
	}
}
