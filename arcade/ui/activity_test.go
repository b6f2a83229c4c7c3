package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/games"
)

// What a friend is doing reads as a sentence, with the game's proper name,
// for solitaires, races and tables alike.
func TestDoingInWords(t *testing.T) {
	c := games.Default()
	for _, tc := range []struct {
		a    hub.Activity
		want string
	}{
		{hub.Activity{Doing: hub.AtMenu}, "at the menu"},
		{hub.Activity{Doing: hub.InGame, Game: "freecell"}, "playing FreeCell"},
		{hub.Activity{Doing: hub.Racing, Game: "klondike/draw1", Room: "KQTWX"}, "racing Klondike Draw 1"},
		{hub.Activity{Doing: hub.Watching, Game: "klondike/draw3", Room: "KQTWX"}, "watching a race of Klondike Draw 3"},
		{hub.Activity{Doing: hub.AtTable, Game: "spite", Room: "KQTWX"}, "at a Spite and Malice table"},
		{hub.Activity{Doing: hub.Watching, Game: "kings", Room: "KQTWX"}, "watching a Kings in the Corner table"},
		{hub.Activity{Doing: hub.LookingForGame, Game: "spite"}, "looking for a game of Spite and Malice"},
	} {
		require.Equal(t, tc.want, Doing(c, tc.a))
	}
}
