package command

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/games"
)

// Every registered command is listed in help, once, and help lists only
// commands that exist.
func TestHelpListsEveryCommand(t *testing.T) {
	require.Len(t, order, len(commands))
	u := Usage(games.Default())
	for _, name := range order {
		_, ok := commands[name]
		require.True(t, ok, name)
		require.Equal(t, 1, strings.Count(u, "HOST "+name+" "), name)
	}
	require.Contains(t, u, "(klondike/draw1, klondike/draw3, freecell,")
	require.NotContains(t, u, ", spite", "a table game has no board to show")
	require.NotContains(t, u, ", kings", "a table game has no board to show")
}

func TestUnknownCommandAndGame(t *testing.T) {
	out, code := Run(Request{Args: []string{"rm", "-rf", "/"}, Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, `unknown command "rm -rf /"`)
	out, code = Run(Request{Args: []string{"top", "spite"}, Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, `unknown game "spite"`)
	out, code = Run(Request{Args: []string{"top"}, Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, "usage: top GAME")
	out, code = Run(Request{Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, "needs a terminal")
}
