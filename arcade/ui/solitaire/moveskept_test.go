package solitaire

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/uitest"
)

// A result keeps the game's moves and when each was made, so that the
// player's history can replay it: an undone move is not among them, and
// the moves replay on the deal to the position the game ended in.
func TestMovesKept(t *testing.T) {
	e, clk := uitest.Env(t)
	info := klondikeInfo()
	spec := info.Spec(11)
	g, err := info.Game.New(spec, info.Defaults())
	require.NoError(t, err)
	s := newGameScreen(e, info, g, info.Defaults())
	rt := drive(s)
	for range 3 {
		clk.T = clk.T.Add(2 * time.Second)
		uitest.Press(rt, "d")
	}
	clk.T = clk.T.Add(time.Second)
	uitest.Press(rt, "u")
	clk.T = clk.T.Add(time.Second)
	uitest.Press(rt, "d")
	r := s.result(false)
	require.Len(t, r.Actions, 3, "the undone draw is not kept")
	require.Len(t, r.Times, 3)
	require.Equal(t, []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}, r.Times)
	again, err := info.Game.New(spec, info.Defaults())
	require.NoError(t, err)
	for _, a := range r.Actions {
		require.NoError(t, again.Do(a))
	}
	require.Equal(t, s.g.Piles(), again.Piles())
}
