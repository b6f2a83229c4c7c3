// Package history is the page of the player's finished games, newest
// first (solitaires, races and table games in one list), from the
// profile; enter opens a game's replay.
package history

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"sshuffle/arcade/ui"
	"sshuffle/store"
)

// shown is how many games the page reads: the latest ones. The history
// command and export reach further back.
const shown = 200

type screen struct {
	env    *ui.Env
	games  []store.HistoryEntry
	lines  []string // each game's line, unstyled
	cursor int
	top    int
	err    string
}

// New is the player's history page.
func New(e *ui.Env) ui.Screen {
	s := &screen{env: e}
	if e.Player.Guest {
		s.err = "Guests' games are not kept: connect with an SSH key to keep a history."
		return s
	}
	gs, err := e.Store.History(e.Ctx(), e.Player.ID, store.HistoryQuery{N: shown})
	if err != nil {
		e.Log.Error("history", "error", err.Error())
		s.err = "Your history could not be read right now."
		return s
	}
	s.games = gs
	for _, g := range gs {
		what, outcome := ui.HistoryLine(g, e.Player.ID)
		s.lines = append(s.lines, fmt.Sprintf("%s  %s: %s", g.Finished.UTC().Format("Jan 02 15:04"), what, outcome))
	}
	return s
}

func (s *screen) MinSize() (int, int) { return 50, 8 }

// rows is how many games fit between the title and the key bar.
func (s *screen) rows() int { return max(s.env.Height-5, 1) }

func (s *screen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	n := len(s.games)
	switch k.String() {
	case "up", "k":
		s.cursor = max(s.cursor-1, 0)
	case "down", "j":
		s.cursor = min(s.cursor+1, max(n-1, 0))
	case "pgup":
		s.cursor = max(s.cursor-s.rows(), 0)
	case "pgdown", "space":
		s.cursor = min(s.cursor+s.rows(), max(n-1, 0))
	case "home", "g":
		s.cursor = 0
	case "end", "G":
		s.cursor = max(n-1, 0)
	case "enter", "r":
		if n > 0 {
			return s.env.Push(ui.Route{Page: ui.Replay, ID: s.games[s.cursor].ID})
		}
	case "q", "esc", "b":
		return s.env.Back()
	}
	if s.cursor < s.top {
		s.top = s.cursor
	}
	if s.cursor >= s.top+s.rows() {
		s.top = s.cursor - s.rows() + 1
	}
	return nil
}

func (s *screen) View() string {
	e := s.env
	var b strings.Builder
	b.WriteString(ui.TitleStyle.Render("History: your finished games, newest first") + "\n\n")
	switch {
	case s.err != "":
		b.WriteString(ui.WarnStyle.Render(s.err) + "\n")
	case len(s.games) == 0:
		b.WriteString(ui.FaintStyle.Render("No finished games yet: every game you finish is kept here.") + "\n")
	default:
		end := min(s.top+s.rows(), len(s.games))
		for i := s.top; i < end; i++ {
			line := fit(s.lines[i], e.Width-2)
			if i == s.cursor {
				b.WriteString(ui.TitleStyle.Render("> "+line) + "\n")
			} else {
				b.WriteString("  " + line + "\n")
			}
		}
		b.WriteString(ui.FaintStyle.Render(fmt.Sprintf("%d of %d  id %s", s.cursor+1, len(s.games), s.games[s.cursor].ID)) + "\n")
	}
	b.WriteString(ui.HelpBar(e.Width, "↑↓", "choose", "enter", "replay", "q", "back"))
	return b.String()
}

// fit cuts a line to w cells.
func fit(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && lipgloss.Width(string(r))+1 > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
