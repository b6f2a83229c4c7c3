package arcade

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/games"
	"sshuffle/reports"
)

// strategyScreen is a game's rules in short, what our solver measured, and
// how the player is doing.
type strategyScreen struct {
	env  *env
	info games.Entry
	back screen
}

func newStrategy(e *env, info games.Entry, back screen) *strategyScreen {
	return &strategyScreen{env: e, info: info, back: back}
}

func (s *strategyScreen) minSize() (int, int) { return 60, 20 }

func (s *strategyScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	if pressed(msg) {
		return s.back, nil
	}
	return s, nil
}

func (s *strategyScreen) view() string {
	width := min(s.env.width-2, 78)
	var b strings.Builder
	b.WriteString(titleStyle.Render("Rules and strategy: "+s.info.Title()) + "\n\n")
	b.WriteString(wrap(s.info.Game.Rules, width) + "\n\n")
	if s.info.Game.Strategy != "" {
		b.WriteString(wrap(s.info.Game.Strategy, width) + "\n\n")
	}
	if r, ok := reports.For(s.info.Key()); ok && r.Deals > 0 {
		b.WriteString(wrap(fmt.Sprintf("Our solver, seeing every card, won %d of %d deals (%.1f%%). Measured with: %s",
			r.Solved, r.Deals, r.WinPct, r.Command), width) + "\n")
	} else {
		b.WriteString(wrap("No solver report is kept for this game yet.", width) + "\n")
	}
	switch {
	case s.env.player.Guest:
		b.WriteString(wrap("Guests' games are not counted.", width) + "\n")
	default:
		st, err := s.env.store.StatsFor(s.env.player.ID, s.info.Key())
		if err == nil && st.Played > 0 {
			b.WriteString(wrap(fmt.Sprintf("You have won %d of %d games (%d%%).", st.Won, st.Played, st.Won*100/st.Played), width) + "\n")
		} else {
			b.WriteString(wrap("You have not finished a game of this yet.", width) + "\n")
		}
	}
	b.WriteString("\n" + faintStyle.Render("Any key to go back."))
	return b.String()
}
