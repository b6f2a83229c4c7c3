package pyramid

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

// playedPositions are positions reached in play of deals 1-n: every other
// position of the solver's winning line of a won deal, and of a game that
// follows the hints of a deal the solver does not win, so early, middle
// and late positions of won and lost games alike.
func playedPositions(tb testing.TB, n uint64) []*Game {
	tb.Helper()
	var out []*Game
	for seed := uint64(1); seed <= n; seed++ {
		g, err := New(spec(seed))
		require.NoError(tb, err)
		r := Solve(spec(seed), 500_000)
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
			if i%2 == 0 {
				c := Game{spec: g.spec, st: g.st}
				out = append(out, &c)
			}
			require.NoError(tb, g.Do(a), "deal %d move %d", seed, i)
		}
	}
	return out
}

// BenchmarkHint times a fresh hint from positions of deals 1-40 and
// reports the 99th percentile and the worst, in ms, and how many positions
// had none:
//
//	go test -run '^$' -bench Hint -benchtime 1x ./games/pyramid/
func BenchmarkHint(b *testing.B) {
	games := playedPositions(b, 40)
	gametest.HintTimes(b, len(games), func(i int) bool { _, _, ok := games[i].Hint(); return ok })
}
