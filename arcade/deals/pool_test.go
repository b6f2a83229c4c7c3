package arcade

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/games/tripeaks"
)

func TestWinnableDealsAreSolverWon(t *testing.T) {
	e, _ := testEnv(t)
	e.pools = NewPools(games.Default(), slog.New(slog.DiscardHandler))
	info, ok := games.Default().Entry("tripeaks")
	require.True(t, ok)
	for range 5 {
		s, err := dealNew(e, info)
		require.NoError(t, err)
		spec := s.g.Spec()
		require.True(t, spec.Winnable, "winnable deals are on by default")
		require.Equal(t, engine.Solved, tripeaks.Solve(spec, 2_000_000).Outcome, "%v", spec)
	}
	// Off: a random deal, not marked winnable.
	require.NoError(t, e.store.PutSetting(e.player.ID, "tripeaks.winnable", "off"))
	s, err := dealNew(e, info)
	require.NoError(t, err)
	require.False(t, s.g.Spec().Winnable)
}

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
	require.Equal(t, engine.Solved, tripeaks.Solve(spec, 2_000_000).Outcome)
	cancel()
	<-done
}

func TestStrategyScreen(t *testing.T) {
	e, _ := testEnv(t)
	info, _ := games.Default().Entry("tripeaks")
	v := newStrategy(e, info, newMenu(e)).view()
	require.Contains(t, v, "Our solver, seeing every card, won")
	require.Contains(t, v, "sshuffle solve tripeaks")
	require.Contains(t, v, "not finished a game")
	require.True(t, strings.Contains(v, "King and Ace connect"))
}
