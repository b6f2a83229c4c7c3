package command

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/ui"
	"sshuffle/games"
)

// play GAME opens "play now" for a table game, with the table size asked
// for, and a solitaire as the menu would; anything else says why not.
func TestPlayNowRoute(t *testing.T) {
	c := games.Default()
	r, why := PlayRoute(c, []string{"play", "spite"})
	require.Empty(t, why)
	require.Equal(t, ui.PlayNow, r.Page)
	require.Equal(t, "spite", r.Game.Key())
	require.Zero(t, r.Players, "the game's fewest")

	for _, args := range [][]string{{"play", "kings", "--players", "3"}, {"play", "kings", "--players=3"}} {
		r, why = PlayRoute(c, args)
		require.Empty(t, why)
		require.Equal(t, ui.PlayNow, r.Page)
		require.Equal(t, "kings", r.Game.Key())
		require.Equal(t, 3, r.Players)
	}

	r, why = PlayRoute(c, []string{"play", "freecell"})
	require.Empty(t, why)
	require.Equal(t, ui.Route{Page: ui.Play, Game: r.Game}, *r)
	require.Equal(t, "freecell", r.Game.Key())

	for bad, says := range map[string][]string{
		"Kings in the Corner is for 2 to 4 players": {"play", "kings", "--players", "5"},
		"Spite and Malice is for 2 players":         {"play", "spite", "--players=3"},
		"Usage: ssh -t HOST play":                   {"play", "kings", "--players"},
		"There is no game chess":                    {"play", "chess"},
	} {
		r, why := PlayRoute(c, says)
		require.Nil(t, r, says)
		require.Contains(t, why, bad, says)
	}
	r, why = PlayRoute(c, []string{"play"})
	require.Nil(t, r)
	require.Contains(t, why, "play spite|kings")

	require.True(t, IsPlay([]string{"play"}))
	out, code := Run(Request{Args: []string{"play", "spite"}, Games: c})
	require.Equal(t, Refused, code)
	require.Contains(t, out, "needs a terminal")
}
