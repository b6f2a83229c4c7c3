package klondike

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
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

// BenchmarkHint times a hint from positions of deals 1-40 in each draw:
//
//	go test -run '^$' -bench Hint -benchtime 1x ./games/klondike/
func BenchmarkHint(b *testing.B) {
	for _, v := range []string{"draw1", "draw3"} {
		b.Run(v, func(b *testing.B) {
			games := playedPositions(b, v, 40)
			gametest.HintTimes(b, len(games), func(i int) bool { _, _, ok := games[i].Hint(); return ok })
		})
	}
}
