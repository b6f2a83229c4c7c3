package freecell

import (
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

const testBudget = 2_000_000

func requireReplaysToWin(t *testing.T, s engine.Spec, moves []engine.Action) {
	t.Helper()
	g, err := New(s)
	require.NoError(t, err)
	for i, a := range moves {
		require.NoError(t, g.Do(a), "deal %d move %d", s.Seed, i)
	}
	require.True(t, g.Won(), "deal %d", s.Seed)
}

func TestSolveReplays(t *testing.T) {
	for n := uint64(1); n <= 100; n++ {
		r := Solve(spec(n), testBudget)
		require.Equal(t, engine.Solved, r.Outcome, "deal %d", n)
		requireReplaysToWin(t, spec(n), r.Moves)
	}
}

// 004: "only one deal in the classic set of 32,000 can't be won: number
// 11982". The search exhausts it.
func TestDeal11982Impossible(t *testing.T) {
	r := Solve(spec(11982), testBudget)
	require.Equal(t, engine.Impossible, r.Outcome)
	require.Equal(t, engine.Undecided, Solve(engine.Spec{Game: "freecell"}, 10).Outcome)
	require.Equal(t, engine.Undecided, Solve(spec(1), 5).Outcome)
}

// From the middle of a game, with automatic moves off, the solution
// replays through that game's Do.
func TestSolveGameMidway(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		g, err := NewWithSettings(spec(seed), Settings{})
		require.NoError(t, err)
		r := engine.NewRNG(seed)
		for range 30 {
			_ = g.Do(randomAction(r, g))
		}
		before := g.b
		res := SolveGame(g, testBudget)
		require.Equal(t, before, g.b)
		if res.Outcome != engine.Solved {
			continue // random moves can spoil a deal
		}
		for _, a := range res.Moves {
			require.NoError(t, g.Do(a))
		}
		require.True(t, g.Won())
	}
}

// BenchmarkSolveRange solves deals 1-200 and reports what the range
// report (sshuffle solve freecell --deals A-B) measures at scale: deals
// solved and positions per deal. Speed is measured here, never asserted.
func BenchmarkSolveRange(b *testing.B) {
	const first, last = 1, 200
	var solved, nodes, deals int
	for b.Loop() {
		for n := uint64(first); n <= last; n++ {
			r := Solve(spec(n), testBudget)
			deals++
			nodes += r.Nodes
			if r.Outcome == engine.Solved {
				solved++
			}
		}
	}
	b.ReportMetric(100*float64(solved)/float64(deals), "%solved")
	b.ReportMetric(float64(nodes)/float64(deals), "positions/deal")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(deals), "ns/deal")
}

func BenchmarkSolve(b *testing.B) {
	for b.Loop() {
		for n := uint64(1); n <= 20; n++ {
			Solve(spec(n), 100000)
		}
	}
}

// BenchmarkSearch runs the whole search (every stage, and the shortening
// of the line) on every 64th deal of 1-32000 and reports the time per
// position made, the figure the search's speed work is measured by:
//
//	go test -run '^$' -bench Search -count 6 ./games/freecell/
func BenchmarkSearch(b *testing.B) {
	var starts []board
	for n := uint64(1); n <= 32000; n += 64 {
		g, err := New(spec(n))
		require.NoError(b, err)
		s := g.b
		s.autoAll((*board).safeStrong)
		starts = append(starts, s)
	}
	nodes := 0
	for b.Loop() {
		for _, s := range starts {
			nodes += search(s, testBudget).Nodes
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/position")
	b.ReportMetric(float64(nodes)/float64(b.N), "positions/op")
}
