package command

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
)

// The play commands' words become the route of the screen they open, or
// a sentence saying why not; other words are no play command.
func TestPlayRoute(t *testing.T) {
	c := games.Default()
	r, why := PlayRoute(c, []string{"join", "abcde"})
	require.Empty(t, why)
	require.Equal(t, ui.Race, r.Page)
	require.Equal(t, "abcde", r.Code, "the hub normalises and checks the code")

	r, why = PlayRoute(c, []string{"race"})
	require.Empty(t, why)
	require.Equal(t, "klondike/draw1", r.Game.Key())
	require.Zero(t, r.Spec.Seed, "a new deal")
	require.False(t, r.Daily)

	r, _ = PlayRoute(c, []string{"race", "today", "freecell"})
	require.Equal(t, "freecell", r.Game.Key())
	require.True(t, r.Daily)

	r, _ = PlayRoute(c, []string{"race", "spider/2suit/99"})
	require.Equal(t, engine.Spec{Game: "spider", Variant: "2suit", Seed: 99}, r.Spec)

	for _, bad := range [][]string{{"join"}, {"join", "A", "B"}, {"race", "chess"}, {"race", "nope/9"}, {"race", "a", "b", "c"}} {
		r, why := PlayRoute(c, bad)
		require.Nil(t, r, bad)
		require.NotEmpty(t, why, bad)
	}
	r, why = PlayRoute(c, []string{"watch", "abcde"})
	require.Empty(t, why)
	require.Equal(t, ui.Route{Page: ui.Race, Code: "abcde", Watch: true}, *r, "watch CODE opens the room to watch")
	r, why = PlayRoute(c, []string{"watch"})
	require.Nil(t, r)
	require.Contains(t, why, "watch CODE")
	r, why = PlayRoute(c, []string{"stats"})
	require.Nil(t, r)
	require.Empty(t, why, "not a play command")
}

// Each play command is also a text command, which says it needs a
// terminal, and the other text commands are no play commands.
func TestPlayCommandsNeedATerminal(t *testing.T) {
	for _, name := range []string{"race", "join", "table", "watch"} {
		require.True(t, IsPlay([]string{name}), name)
		out, code := Run(Request{Args: []string{name}, Games: games.Default()})
		require.Equal(t, Refused, code, name)
		require.Contains(t, out, "needs a terminal", name)
	}
	require.False(t, IsPlay([]string{"stats"}))
	require.False(t, IsPlay(nil))
}
