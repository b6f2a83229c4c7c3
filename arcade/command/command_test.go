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
	out, code = Run(Request{Args: []string{"top", "spite/bogus"}, Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, `unknown game "spite/bogus"`)
	// A table game's board is its ratings, which have no daily board.
	out, code = Run(Request{Args: []string{"top", "spite", "--daily"}, Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, "Spite and Malice has no deal of the day")
	out, code = Run(Request{Args: []string{"top"}, Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, "usage: top GAME")
	out, code = Run(Request{Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, "needs a terminal")
	// A game's own name lists its variants; any other lists the games.
	out, code = Run(Request{Args: []string{"leaderboard", "klondike"}, Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, "klondike/draw1, klondike/draw3")
	out, _ = Run(Request{Args: []string{"top", "chess"}, Games: games.Default()})
	require.Contains(t, out, "the games are: klondike/draw1")
	// help takes nothing after it.
	out, code = Run(Request{Args: []string{"help", "--bogus"}, Games: games.Default()})
	require.Equal(t, 1, code)
	require.Contains(t, out, `not "--bogus"`)
}
