// Package profile holds the screens of records: the player's profile and a
// game's leaderboards.
package profile

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/internal/format"
	"sshuffle/store"
)

type profileScreen struct {
	env   *ui.Env
	stats map[string]store.Stats
	err   string
}

// New is the player's profile: stats and streaks of every game.
func New(e *ui.Env) ui.Screen {
	p := &profileScreen{env: e}
	if e.Player.Guest {
		p.err = "Guests have no profile: connect with an SSH key to keep stats."
		return p
	}
	st, err := e.Store.Stats(e.Ctx(), e.Player.ID)
	if err != nil {
		p.err = "Your stats could not be read right now."
		e.Log.Error("stats", "error", err.Error())
	}
	p.stats = st
	return p
}

func (p *profileScreen) MinSize() (int, int) { return 76, 16 }

func (p *profileScreen) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "n" && !p.env.Player.Guest {
		return p.env.Push(ui.Route{Page: ui.Name, Rename: true})
	}
	if ui.Pressed(msg) {
		return p.env.Back()
	}
	return nil
}

func (p *profileScreen) View() string {
	var b strings.Builder
	name := p.env.Player.Name
	if name == "" {
		name = "(no name yet)"
	}
	b.WriteString(ui.TitleStyle.Render("Profile: "+name) + "\n\n")
	if p.err != "" {
		b.WriteString(ui.WarnStyle.Render(p.err) + "\n")
	} else {
		b.WriteString(fmt.Sprintf("  %-24s %6s %6s %6s %10s %10s %7s\n", "Game", "Played", "Won", "Win %", "Best score", "Best time", "Streak"))
		for _, g := range p.env.Games.Entries() {
			st := p.stats[g.Key()]
			pct, best, bt := "-", "-", "-"
			if st.Played > 0 {
				pct = fmt.Sprintf("%d%%", st.Won*100/st.Played)
				if g.Game.Points && st.Played > st.Abandoned {
					best = fmt.Sprint(st.BestScore)
				}
			}
			if st.BestTime > 0 {
				bt = format.Duration(st.BestTime)
			}
			streak := "-"
			if sk, err := p.env.Store.Streak(p.env.Ctx(), p.env.Player.ID, g.Key(), p.env.Now()); err == nil && sk.Best > 0 {
				streak = fmt.Sprintf("%d/%d", sk.Current, sk.Best)
			}
			b.WriteString(fmt.Sprintf("  %-24s %6d %6d %6s %10s %10s %7s\n", g.Title(), st.Played, st.Won, pct, best, bt, streak))
		}
	}
	b.WriteString("\n" + ui.FaintStyle.Render("Streak: days in a row you won today's deal, now/best.") + "\n")
	if p.env.Player.Guest {
		b.WriteString(ui.FaintStyle.Render("Any key to go back."))
	} else {
		b.WriteString(ui.HelpBar(p.env.Width, "n", "change your name", "any other key", "back"))
	}
	return b.String()
}
