package arcade

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
)

func TestFirstRoute(t *testing.T) {
	s := &Server{}
	s.cfg.defaults()
	s.games = s.cfg.Games
	r, why := s.firstRoute([]string{"join", "abcde"})
	require.Empty(t, why)
	require.Equal(t, ui.Race, r.Page)
	require.Equal(t, "abcde", r.Code, "the hub normalises and checks the code")

	r, why = s.firstRoute([]string{"race"})
	require.Empty(t, why)
	require.Equal(t, "klondike/draw1", r.Game.Key())
	require.Zero(t, r.Spec.Seed, "a new deal")
	require.False(t, r.Daily)

	r, _ = s.firstRoute([]string{"race", "today", "freecell"})
	require.Equal(t, "freecell", r.Game.Key())
	require.True(t, r.Daily)

	r, _ = s.firstRoute([]string{"race", "spider/2suit/99"})
	require.Equal(t, engine.Spec{Game: "spider", Variant: "2suit", Seed: 99}, r.Spec)

	for _, bad := range [][]string{{"join"}, {"join", "A", "B"}, {"race", "chess"}, {"race", "nope/9"}, {"race", "a", "b", "c"}} {
		r, why := s.firstRoute(bad)
		require.Nil(t, r, bad)
		require.NotEmpty(t, why, bad)
	}
	r, why = s.firstRoute([]string{"stats"})
	require.Nil(t, r)
	require.Empty(t, why, "not a play command")
}
