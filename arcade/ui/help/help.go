// Package help holds the screens that explain: the keys (with a game's
// rules when opened from one) and a game's rules, strategy and win rates.
package help

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games"
)

type helpScreen struct {
	env  *ui.Env
	game *games.Entry // nil from the menu
	top  int          // first line shown: the text pages at 80x24
}

// New is the help screen; opened from a game (g.Game set), it says what
// that game's own keys do and shows its rules.
func New(e *ui.Env, g games.Entry) ui.Screen {
	h := &helpScreen{env: e}
	if g.Game != nil {
		h.game = &g
	}
	return h
}

func (h *helpScreen) MinSize() (int, int) { return 60, 20 }

func (h *helpScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if ui.Pressed(msg) {
			return h.env.Back()
		}
		if w, ok := msg.(tea.MouseWheelMsg); ok {
			h.scroll(map[bool]int{true: -1, false: 1}[w.Button == tea.MouseWheelUp])
		}
		return nil
	}
	page := h.page()
	last := max(len(h.lines())-page, 0)
	switch k.String() {
	case "up", "k":
		h.scroll(-1)
	case "down", "j":
		h.scroll(1)
	case "pgup", "b":
		h.scroll(-page)
	case "pgdown", "space":
		if h.top >= last {
			return h.env.Back()
		}
		h.scroll(page)
	case "home", "g":
		h.top = 0
	case "end", "G":
		h.top = last
	default:
		return h.env.Back()
	}
	return nil
}

// page is how many lines of text the window shows under the footer.
func (h *helpScreen) page() int { return max(h.env.Height-1, 1) }

func (h *helpScreen) scroll(n int) {
	h.top = min(max(h.top+n, 0), max(len(h.lines())-h.page(), 0))
}

// layout is the kinds of piles a game deals, for the keys that go to them.
func layout(g *games.Entry) map[engine.PileKind]int {
	kinds := map[engine.PileKind]int{}
	if g == nil {
		return nil
	}
	d, err := g.Game.New(g.Spec(1), g.Defaults())
	if err != nil {
		return nil
	}
	for _, p := range d.Piles() {
		kinds[p.Kind]++
	}
	return kinds
}

// lines is the whole text, wrapped to the window.
func (h *helpScreen) lines() []string {
	width := min(h.env.Width-2, 78)
	var out []string
	add := func(s string) { out = append(out, strings.Split(s, "\n")...) }
	add(ui.TitleStyle.Render("Help"))
	if h.game != nil && h.game.Game.Rules != "" {
		// A game's rules first: from a game, they are what a newcomer
		// is looking for.
		add("")
		add(ui.TitleStyle.Render(h.game.Title()))
		add(ui.Wrap(h.game.Game.Rules, width))
	}
	add("")
	rows := [][2]string{
		{"← ↓ ↑ → or h j k l", "move the cursor (up/down also walks a column)"},
		{"space or enter", "pick up the card under the cursor, then drop it on a pile"},
		{"space twice", "on the same card: send it to its foundation or best place"},
		{"f or .", "send the card home at once (TriPeaks: to the waste; Pyramid: a King, or the card's only pair)"},
		{"d or s", "turn the stock (deal a row in Spider)"},
		{"1-9, 0", "jump to a column (TriPeaks, Pyramid: to a free card, counted from the left)"},
		{"w", "jump to the waste"},
		{"c", "jump to a free cell (again: the next one)"},
		{"a", "jump to a foundation (again: the next one)"},
		{"u, z or backspace", "undo (as often as you like)"},
		{"t", fmt.Sprintf("hint (%d per game; a hint that finds nothing is free)", ui.HintsPerGame)},
		{"r / n", "restart this deal / new deal (press twice)"},
		{"#", "play a deal by number (FreeCell 1-1000000; any game: race a friend)"},
		{"o", "this game's options (winnable deals only, FreeCell auto-moves...)"},
		{"i", "rules, strategy, our solver's win rate and yours"},
		{"esc", "drop the held card; again: back to the menu"},
		{"q", "back to the menu (your game is saved); in the menu, twice: quit"},
		{"mouse", "click a card then its place, or drag it; double-click sends it home"},
	}
	if h.game != nil {
		// In a game, the keys whose meaning differs say what they do
		// here, and the keys for piles it has not are left out.
		keys := h.game.Game.Keys
		kinds := layout(h.game)
		for i := 0; i < len(rows); i++ {
			drop := false
			switch rows[i][0] {
			case "f or .":
				rows[i][1] = keys.Home
			case "d or s":
				drop = keys.Draw == ""
				rows[i][1] = keys.Draw
			case "1-9, 0":
				if kinds[engine.Tableau] > 0 {
					rows[i][1] = "jump to a column"
				} else {
					rows[i][1] = "jump to a free card, counted from the left"
				}
			case "w":
				drop = kinds[engine.Waste] == 0
			case "c":
				drop = kinds[engine.Cell] == 0
			case "a":
				drop = kinds[engine.Foundation] == 0
			}
			if drop {
				rows = append(rows[:i], rows[i+1:]...)
				i--
			}
		}
	}
	for _, r := range rows {
		// The description wraps under itself, so no line is cut.
		desc := ui.FitLines(r[1], max(width-21, 20), 4)
		for j, d := range desc {
			key := ""
			if j == 0 {
				key = r[0]
			}
			out = append(out, fmt.Sprintf("  %s%s %s", ui.KeyStyle.Render(key), strings.Repeat(" ", max(18-lipgloss.Width(key), 0)), d))
		}
	}
	if !h.env.Color {
		add("")
		add("  Cards in (round brackets) are red, in [square brackets] black. Without colour")
		add("  the cursor reads >[ 7S]< and a held card *( 7H)*.")
	}
	return out
}

func (h *helpScreen) View() string {
	lines := h.lines()
	page := h.page()
	h.top = min(h.top, max(len(lines)-page, 0))
	end := min(h.top+page, len(lines))
	var b strings.Builder
	b.WriteString(strings.Join(lines[h.top:end], "\n"))
	for i := end - h.top; i < page; i++ {
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if len(lines) <= page {
		b.WriteString(ui.FaintStyle.Render("Any key to go back."))
	} else {
		b.WriteString(ui.HelpBar(h.env.Width, "↑↓", "scroll", "space", "next page", "any other key", "back") +
			ui.FaintStyle.Render(fmt.Sprintf("  (%d-%d of %d)", h.top+1, end, len(lines))))
	}
	return b.String()
}
