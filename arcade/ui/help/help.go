// Package help holds the screens that explain: the keys (with a game's
// rules when opened from one) and a game's rules, strategy and win rates.
package help

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/games"
)

type helpScreen struct {
	env  *ui.Env
	game *games.Entry // nil from the menu
}

// New is the help screen; opened from a game (g.Game set), it says what
// that game's keys do and shows its rules.
func New(e *ui.Env, g games.Entry) ui.Screen {
	h := &helpScreen{env: e}
	if g.Game != nil {
		h.game = &g
	}
	return h
}

func (h *helpScreen) MinSize() (int, int) { return 60, 20 }

func (h *helpScreen) Update(msg tea.Msg) tea.Cmd {
	if ui.Pressed(msg) {
		return h.env.Back()
	}
	return nil
}

func (h *helpScreen) View() string {
	var b strings.Builder
	b.WriteString(ui.TitleStyle.Render("Help") + "\n\n")
	rows := [][2]string{
		{"← ↓ ↑ → or h j k l", "move the cursor (up/down also walks a column)"},
		{"space or enter", "pick up the card under the cursor, then drop it on a pile"},
		{"space twice", "on the same card: send it to its foundation or best place"},
		{"f or .", "send the card home at once (TriPeaks: to the waste; Pyramid: a King, or the card's only pair)"},
		{"d or s", "turn the stock (deal a row in Spider)"},
		{"1-9, 0", "jump to a column"},
		{"u, z or backspace", "undo (as often as you like)"},
		{"t", fmt.Sprintf("hint (%d per game; a hint that finds nothing is free)", ui.HintsPerGame)},
		{"r / n", "restart this deal / new deal (press twice)"},
		{"#", "play a deal by number (FreeCell 1-1000000; any game: race a friend)"},
		{"o", "this game's options (winnable deals only, FreeCell auto-moves...)"},
		{"i", "rules, strategy, our solver's win rate and yours"},
		{"esc", "drop the held card; again: back to the menu"},
		{"q", "back to the menu (your game is saved)"},
		{"mouse", "click a card then its place, or drag it; double-click sends it home"},
	}
	if h.game != nil {
		// In a game, the keys whose meaning differs say what they do here.
		keys := h.game.Game.Keys
		for i := 0; i < len(rows); i++ {
			switch rows[i][0] {
			case "f or .":
				rows[i][1] = keys.Home
			case "d or s":
				if keys.Draw == "" {
					rows = append(rows[:i], rows[i+1:]...)
					i--
				} else {
					rows[i][1] = keys.Draw
				}
			}
		}
	}
	for _, r := range rows {
		b.WriteString(fmt.Sprintf("  %-20s %s\n", ui.KeyStyle.Render(r[0]), r[1]))
	}
	if !h.env.Color {
		b.WriteString("\n  Cards in (round brackets) are red, in [square brackets] black.\n")
	}
	if h.game != nil && h.game.Game.Rules != "" {
		b.WriteString("\n" + ui.TitleStyle.Render(h.game.Title()) + "\n")
		b.WriteString(ui.Wrap(h.game.Game.Rules, min(h.env.Width-2, 78)) + "\n")
	}
	b.WriteString("\n" + ui.FaintStyle.Render("Any key to go back."))
	return b.String()
}
