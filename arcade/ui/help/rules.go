package help

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/reports"
)

// strategyScreen is a game's rules in short, what our solver measured, and
// how the player is doing.
type strategyScreen struct {
	env  *ui.Env
	info games.Entry
}

// NewRules is a game's rules in short, what our solver measured, and how
// the player is doing.
func NewRules(e *ui.Env, info games.Entry) ui.Screen {
	return &strategyScreen{env: e, info: info}
}

func (s *strategyScreen) MinSize() (int, int) { return 60, 20 }

func (s *strategyScreen) Update(msg tea.Msg) tea.Cmd {
	if ui.Pressed(msg) {
		return s.env.Back()
	}
	return nil
}

func (s *strategyScreen) View() string {
	width := min(s.env.Width-2, 78)
	var b strings.Builder
	b.WriteString(ui.TitleStyle.Render("Rules and strategy: "+s.info.Title()) + "\n\n")
	b.WriteString(ui.Wrap(s.info.Game.Rules, width) + "\n\n")
	if s.info.Game.Strategy != "" {
		b.WriteString(ui.Wrap(s.info.Game.Strategy, width) + "\n\n")
	}
	if r, ok := reports.For(s.info.Key()); ok && r.Deals > 0 {
		b.WriteString(ui.Wrap(fmt.Sprintf("Our solver, seeing every card, won %d of %d deals (%.1f%%). Measured with: %s",
			r.Solved, r.Deals, r.WinPct, r.Command), width) + "\n")
	} else {
		b.WriteString(ui.Wrap("No solver report is kept for this game yet.", width) + "\n")
	}
	switch {
	case s.env.Player.Guest:
		b.WriteString(ui.Wrap("Guests' games are not counted.", width) + "\n")
	default:
		st, err := s.env.Store.StatsFor(s.env.Ctx(), s.env.Player.ID, s.info.Key())
		if err == nil && st.Played > 0 {
			b.WriteString(ui.Wrap(fmt.Sprintf("You have won %d of %d games (%d%%).", st.Won, st.Played, st.Won*100/st.Played), width) + "\n")
		} else {
			b.WriteString(ui.Wrap("You have not finished a game of this yet.", width) + "\n")
		}
	}
	b.WriteString("\n" + ui.FaintStyle.Render("Any key to go back."))
	return b.String()
}
