package freecell

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// TestSolveRange measures the solver over a range of deals when asked:
//
//	FREECELL_SOLVE=1-32000 go test -run TestSolveRange -v ./games/freecell/
//
// It reports totals; speed is measured here, never asserted.
func TestSolveRange(t *testing.T) {
	rng := os.Getenv("FREECELL_SOLVE")
	if rng == "" {
		t.Skip("set FREECELL_SOLVE=from-to to measure")
	}
	lo, hi, _ := strings.Cut(rng, "-")
	from, _ := strconv.Atoi(lo)
	to, _ := strconv.Atoi(hi)
	if to == 0 {
		to = from
	}
	budget := testBudget
	if b := os.Getenv("FREECELL_BUDGET"); b != "" {
		budget, _ = strconv.Atoi(b)
	}
	var next atomic.Int64
	next.Store(int64(from))
	var mu sync.Mutex
	counts := map[engine.Outcome]int{}
	var nodes, worst int
	var worstDeal int64
	begin := time.Now()
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := next.Add(1) - 1
				if n > int64(to) {
					return
				}
				r := Solve(spec(uint64(n)), budget)
				mu.Lock()
				counts[r.Outcome]++
				nodes += r.Nodes
				if r.Nodes > worst {
					worst, worstDeal = r.Nodes, n
				}
				if r.Outcome != engine.Solved {
					fmt.Printf("deal %d: %v after %d nodes\n", n, r.Outcome, r.Nodes)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	fmt.Printf("deals %d-%d: solved %d, impossible %d, undecided %d; %d nodes (most %d, deal %d); %.1fs\n",
		from, to, counts[engine.Solved], counts[engine.Impossible], counts[engine.Undecided],
		nodes, worst, worstDeal, time.Since(begin).Seconds())
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
