package deals

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/games"
)

func TestLevels(t *testing.T) {
	for _, c := range []struct {
		moves, nodes int
		want         Level
	}{
		{235, 42, Easy}, {100, 199, Easy}, {100, 200, Medium}, {281, 50891, Hard},
		{100, 99_999, Hard}, {100, 100_000, VeryHard}, {0, 5, Medium},
	} {
		require.Equal(t, c.want, levelOf(c.moves, c.nodes), "%d moves, %d positions", c.moves, c.nodes)
	}
}

func TestRateAndKeep(t *testing.T) {
	g, ok := games.Default().Entry("klondike/draw1")
	require.True(t, ok)
	spec := engine.Spec{Game: "klondike", Variant: "draw1", Winnable: true, Seed: 3}
	d, ok := Rate(g, spec)
	require.True(t, ok)
	require.True(t, d.Solved)
	require.Equal(t, d.Level.String(), d.Name)
	require.Equal(t, levelOf(d.Moves, d.Positions), d.Level)
	require.Contains(t, d.Text(), d.Name)

	p := NewPools(games.Default(), slog.New(slog.DiscardHandler))
	_, ok = p.Rated(spec)
	require.False(t, ok)
	got, ok := p.Difficulty(g, spec, nil)
	require.True(t, ok)
	require.Equal(t, d, got, "the solver is deterministic")
	kept, ok := p.Rated(spec)
	require.True(t, ok)
	require.Equal(t, d, kept)

	fc, _ := games.Default().Entry("freecell")
	_, ok = Rate(games.Entry{Game: &games.Game{}}, fc.Spec(1))
	require.False(t, ok, "a game without a solver is not rated")
}

// slots is one search slot, as the server's: Run gives up once done closes.
type slots chan struct{}

func (s slots) Run(_ string, done <-chan struct{}, fn func()) bool {
	select {
	case s <- struct{}{}:
	case <-done:
		return false
	}
	defer func() { <-s }()
	fn()
	return true
}

// A rating no longer wanted before its slot comes is not searched, and a
// later caller who wants it still gets it.
func TestDifficultyNoLongerWanted(t *testing.T) {
	g, _ := games.Default().Entry("klondike/draw1")
	spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: 3}
	p := NewPools(games.Default(), slog.New(slog.DiscardHandler))
	sl := make(slots, 1)
	p.Share(sl)
	sl <- struct{}{} // the slot is taken
	done := make(chan struct{})
	got := make(chan bool)
	go func() {
		_, ok := p.Difficulty(g, spec, done)
		got <- ok
	}()
	close(done)
	require.False(t, <-got)
	_, ok := p.Rated(spec)
	require.False(t, ok)
	<-sl
	d, ok := p.Difficulty(g, spec, nil)
	require.True(t, ok)
	want, _ := Rate(g, spec)
	require.Equal(t, want, d)
}

// A search under way stops once its rating is no longer wanted.
func TestRatingStopsUnwanted(t *testing.T) {
	g, _ := games.Default().Entry("klondike/draw1")
	closed := make(chan struct{})
	close(closed)
	for seed := range uint64(1000) {
		spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: seed}
		if d, _ := Rate(g, spec); d.Positions < 4096 {
			continue
		}
		_, ok := rateUnless(g, spec, closed)
		require.False(t, ok, "%s", spec)
		return
	}
	t.Fatal("no deal searched long enough to stop")
}
