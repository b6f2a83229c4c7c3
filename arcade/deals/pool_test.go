package deals

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/tripeaks"
)

func TestPoolFillsInBackground(t *testing.T) {
	p := &Pools{pools: map[string]*pool{}, wake: make(chan struct{}, 1), log: slog.New(slog.DiscardHandler)}
	tp, _ := games.Default().Entry("tripeaks")
	p.pools["tripeaks"] = &pool{entry: tp, spec: engine.Spec{Game: "tripeaks", Winnable: true}, solve: tripeaks.Solve, budget: 200_000}
	_, ok := p.Take("tripeaks")
	require.False(t, ok, "an empty pool with no kept report has nothing")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	deadline := time.Now().Add(60 * time.Second)
	for p.Ready("tripeaks") < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.GreaterOrEqual(t, p.Ready("tripeaks"), 3)
	spec, ok := p.Take("tripeaks")
	require.True(t, ok)
	r := tripeaks.Solve(spec, 200_000)
	require.Equal(t, engine.Solved, r.Outcome)
	d, ok := p.Rated(spec)
	require.True(t, ok, "a deal from the pool comes rated by the search that won it")
	require.Equal(t, difficultyOf(r), d)
	cancel()
	<-done
}

// A fresh deal is a solver-won one only when the game vets its deals and
// the player has the option on; otherwise it comes from the game's range.
func TestFreshHonoursTheWinnableOption(t *testing.T) {
	p := NewPools(games.Default(), slog.New(slog.DiscardHandler))
	tp, _ := games.Default().Entry("tripeaks")
	on := Fresh(p, tp, games.Options{games.Winnable.Key: true})
	require.True(t, on.Winnable)
	require.Equal(t, engine.Solved, tripeaks.Solve(on, 2_000_000).Outcome, "%v", on)
	off := Fresh(p, tp, games.Options{})
	require.False(t, off.Winnable)
	fc, _ := games.Default().Entry("freecell")
	for range 200 {
		s := Fresh(p, fc, games.Options{games.Winnable.Key: true})
		require.False(t, s.Winnable, "FreeCell's deals are not vetted")
		require.True(t, fc.Game.Deals.Contains(s.Seed), "%d", s.Seed)
	}
}
