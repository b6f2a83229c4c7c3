package spider

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

func replayWins(t testing.TB, spec engine.Spec, moves []engine.Action) {
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
		for _, v := range []string{"1suit", "2suit", "4suit"} {
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

// BenchmarkSolveRates solves deals 1-20 of each variant with the default
// budget and reports the share won and decided and the positions per deal
// (sshuffle solve spider --suits N --deals A-B measures the same at
// scale). Every win must replay.
//
//	go test -run '^$' -bench SolveRates ./games/spider/
func BenchmarkSolveRates(b *testing.B) {
	for _, v := range []string{"1suit", "2suit", "4suit"} {
		b.Run(v, func(b *testing.B) {
			var deals, solved, decided, nodes int
			for b.Loop() {
				for seed := uint64(1); seed <= 20; seed++ {
					spec := engine.Spec{Game: "spider", Variant: v, Seed: seed}
					res := Solve(spec, DefaultNodes)
					deals++
					nodes += res.Nodes
					if res.Outcome != engine.Undecided {
						decided++
					}
					if res.Outcome == engine.Solved {
						solved++
						replayWins(b, spec, res.Moves)
					}
				}
			}
			b.ReportMetric(100*float64(solved)/float64(deals), "%won")
			b.ReportMetric(100*float64(decided)/float64(deals), "%decided")
			b.ReportMetric(float64(nodes)/float64(deals), "positions/deal")
		})
	}
}

// Four suits search with their own weight sets: deal 1 is won within a
// budget the two-suit sets (nineteen small shares) run out of, and the win
// replays.
func TestSolveFourSuits(t *testing.T) {
	spec := engine.Spec{Game: "spider", Variant: "4suit", Seed: 1}
	res := Solve(spec, 50_000)
	require.Equal(t, engine.Solved, res.Outcome)
	replayWins(t, spec, res.Moves)
}

// Two-suit deal 9 is one the first round of small searches leaves
// undecided; the second round's longer searches win it, and the win
// replays.
func TestSolveTwoSuitsSecondRound(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("two searches of 300k positions each")
	}
	spec := engine.Spec{Game: "spider", Variant: "2suit", Seed: 9}
	g, err := New(spec)
	require.NoError(t, err)
	first := solvePortfolio(g, 60*(DefaultNodes/127), suitedWeights)
	require.Equal(t, engine.Undecided, first.Outcome)
	res := Solve(spec, DefaultNodes)
	require.Equal(t, engine.Solved, res.Outcome)
	replayWins(t, spec, res.Moves)
}

// Four-suit deal 17 is one the first round leaves undecided at its whole
// 1.6 million positions; the second round's searches with macro moves win
// it, and the win (the macro moves written out one group at a time)
// replays.
func TestSolveFourSuitsSecondRound(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("a first round of 1.6 million positions")
	}
	spec := engine.Spec{Game: "spider", Variant: "4suit", Seed: 17}
	g, err := New(spec)
	require.NoError(t, err)
	first := solvePortfolio(g, fourSuitFirst, fourSuitWeights)
	require.Equal(t, engine.Undecided, first.Outcome)
	res := Solve(spec, 4_000_000)
	require.Equal(t, engine.Solved, res.Outcome)
	require.Greater(t, res.Nodes, fourSuitFirst)
	replayWins(t, spec, res.Moves)
}

// expand with a seen set works a child's key out before building it: the
// children it yields must be the ones it yields without (each key that of
// the position built), less those already seen.
func TestExpandKeysBeforeBuilding(t *testing.T) {
	var games []*Game
	for _, v := range variants {
		games = append(games, playedPositions(t, v, hintDeals[v][:1])...)
		r := engine.NewRNG(7)
		g, err := New(engine.Spec{Game: "spider", Variant: v, Seed: 11})
		require.NoError(t, err)
		for range 300 {
			_ = g.Do(randomAction(g, r))
			games = append(games, g.Clone())
		}
	}
	type kid struct {
		m smove
		p spos
	}
	var seen stampSet
	seen.init(1 << 10)
	children := 0
	for _, g := range games {
		row := func(p *pos) []engine.Card {
			r := numRows - int(p.rows)
			return g.stock[r*numCols : r*numCols+numCols]
		}
		for _, w := range []weights{{}, {splits: true, macros: true}} {
			var all, fresh []kid
			expand(&g.p, row, w, nil, &spos{}, func(m smove, q *spos) {
				require.Equal(t, q.p.key(), q.k)
				all = append(all, kid{m, *q})
			})
			// Half the children seen already; a key yielded twice (the
			// same position two ways) is new only the first time.
			seen.clear()
			had := map[uint64]bool{}
			for i, k := range all {
				if i%2 == 1 {
					seen.add(k.p.k)
					had[k.p.k] = true
				}
			}
			var want []kid
			for _, k := range all {
				if !had[k.p.k] {
					had[k.p.k] = true
					want = append(want, k)
				}
			}
			expand(&g.p, row, w, &seen, &spos{}, func(m smove, q *spos) {
				fresh = append(fresh, kid{m, *q})
			})
			require.Equal(t, want, fresh)
			children += len(all)
		}
	}
	require.Greater(t, children, 5000)
}

// Four-suit deal 25 is one the first two rounds leave undecided at their
// 4 million positions; a jittered search of the third round wins it, and
// the win replays.
func TestSolveFourSuitsThirdRound(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("two rounds of 4 million positions")
	}
	spec := engine.Spec{Game: "spider", Variant: "4suit", Seed: 25}
	before := Solve(spec, fourSuitFirst+fourSuitSecondNodes)
	require.Equal(t, engine.Undecided, before.Outcome)
	res := Solve(spec, fourSuitFirst+fourSuitSecondNodes+len(fourSuitJittered)*fourSuitJitterNodes)
	require.Equal(t, engine.Solved, res.Outcome)
	require.Greater(t, res.Nodes, fourSuitFirst+fourSuitSecondNodes)
	replayWins(t, spec, res.Moves)
}

// sortKeys must order the column keys exactly as a sort does: the keys of
// dealt-out positions (and so the third round's jitter) depend on it.
func TestSortKeys(t *testing.T) {
	r := engine.NewRNG(3)
	for i := range 20000 {
		var hs [numCols]uint64
		for j := range hs {
			hs[j] = r.Uint64()
			if i%2 == 1 {
				hs[j] %= 4 // many equal keys
			}
		}
		want := hs
		slices.Sort(want[:])
		sortKeys(&hs)
		require.Equal(t, want, hs)
	}
}

// Four-suit deal 70 is one the first eight jittered searches leave
// undecided (as do the first two rounds); with the budget for more, a
// later seed wins it, and the win replays.
func TestSolveFourSuitsMoreSeeds(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("eight searches of 250k positions")
	}
	spec := engine.Spec{Game: "spider", Variant: "4suit", Seed: 70}
	g, err := New(spec)
	require.NoError(t, err)
	eight := 8 * fourSuitJitterNodes
	before := solveJittered(g, eight)
	require.Equal(t, engine.Undecided, before.Outcome)
	res := solveJittered(g, len(fourSuitJittered)*fourSuitJitterNodes)
	require.Equal(t, engine.Solved, res.Outcome)
	require.Greater(t, res.Nodes, eight)
	replayWins(t, spec, res.Moves)
}
