package ui

import (
	"strings"

	"sshuffle/arcade/hub"
	"sshuffle/games"
)

// Doing is what a session is doing in a player's words, with the game's
// proper name: "racing Klondike Draw 1", "at a Spite and Malice table",
// "watching a race of FreeCell". The friends command and the friends
// screen both say it so.
func Doing(c *games.Catalogue, a hub.Activity) string {
	title := a.Game
	table := false
	if c != nil {
		if e, ok := c.Entry(a.Game); ok {
			title, table = GameName(e), e.AtTable()
		}
	}
	if a.Game == "" {
		return a.Doing.String()
	}
	switch a.Doing {
	case hub.InGame:
		return "playing " + title
	case hub.Racing:
		return "racing " + title
	case hub.AtTable:
		return "at a " + title + " table"
	case hub.LookingForGame:
		return "looking for a game of " + title
	case hub.Watching:
		if table {
			return "watching a " + title + " table"
		}
		return "watching a race of " + title
	}
	return a.Doing.String()
}

// GameName is a game's title as it reads in a sentence: "Klondike Draw 1"
// where the menu line says "Klondike · Draw 1".
func GameName(e games.Entry) string { return strings.ReplaceAll(e.Title(), " · ", " ") }
