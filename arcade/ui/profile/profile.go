// Package profile holds the screens of records: the player's profile and a
// game's leaderboards.
package profile

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/engine/rating"
	"sshuffle/internal/format"
	"sshuffle/store"
)

type profileScreen struct {
	env   *ui.Env
	stats map[string]store.Stats
	races []store.RaceRecord
	// tables: the player's stats at each table game, by game name.
	tables map[string]store.TableStats
	// ratings: the player's rating at each table game, by game name
	// (none: a newcomer's).
	ratings map[string]store.Rating
	err     string
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
	if p.races, err = e.Store.Races(e.Ctx(), e.Player.ID, 50); err != nil {
		e.Log.Error("races", "error", err.Error())
	}
	p.tables = map[string]store.TableStats{}
	if ts, err := e.Store.TableStats(e.Ctx(), e.Player.ID); err != nil {
		e.Log.Error("table stats", "error", err.Error())
	} else {
		for _, t := range ts {
			p.tables[t.Game] = t
		}
	}
	p.ratings = map[string]store.Rating{}
	if rs, err := e.Store.Ratings(e.Ctx(), e.Player.ID); err != nil {
		e.Log.Error("ratings", "error", err.Error())
	} else {
		for _, r := range rs {
			p.ratings[r.Game] = r
		}
	}
	return p
}

// ratingLine is the player's rating at each table game, on one line.
func (p *profileScreen) ratingLine() string {
	var parts []string
	provisional := false
	for _, g := range p.env.Games.Entries() {
		if !g.AtTable() {
			continue
		}
		r, ok := p.ratings[g.Game.Name]
		x := rating.Default()
		if ok {
			x = rating.Rating{Rating: r.Rating, Deviation: r.Deviation}
		}
		provisional = provisional || x.IsProvisional()
		parts = append(parts, g.Title()+" "+rating.Label(x))
	}
	if len(parts) == 0 {
		return ""
	}
	line := "  Ratings  " + strings.Join(parts, "  ")
	if provisional {
		line += "   " + ui.FaintStyle.Render("? provisional")
	}
	return line + "\n"
}

// raceLines are the player's races: a count, then the latest ones.
func (p *profileScreen) raceLines(n int) []string {
	if len(p.races) == 0 {
		return []string{ui.FaintStyle.Render("Races: none yet (r on a game in the menu races it).")}
	}
	won := 0
	for _, r := range p.races {
		for _, x := range r.Racers {
			if x.Account == p.env.Player.ID && x.Place == 1 {
				won++
			}
		}
	}
	count := fmt.Sprint(len(p.races))
	if len(p.races) == 50 {
		count = "50+"
	}
	lines := []string{fmt.Sprintf("Races: %s, first in %d. Latest:", count, won)}
	for _, r := range p.races[:min(n, len(p.races))] {
		var me store.RaceRacer
		for _, x := range r.Racers {
			if x.Account == p.env.Player.ID {
				me = x
			}
		}
		place := "out"
		if me.Place > 0 {
			place = format.Ordinal(me.Place)
		}
		lines = append(lines, fmt.Sprintf("  %-5s of %d  %-28s %s  %6s  %d moves", place, len(r.Racers), r.Spec, r.Finished.Format("Jan 2"), format.Duration(me.Time), me.Moves))
	}
	return lines
}

// tableRow is a table game's line: games played and won (went out first,
// or the most points), and in the streak column the matches won/played.
func (p *profileScreen) tableRow(title string, st store.TableStats) string {
	pct, matches := "-", "-"
	if st.Played > 0 {
		pct = fmt.Sprintf("%d%%", st.Won*100/st.Played)
	}
	if st.Matches > 0 {
		matches = fmt.Sprintf("%d/%d", st.MatchesWon, st.Matches)
	}
	return fmt.Sprintf("  %-24s %6d %6d %6s %10s %10s %7s\n", title, st.Played, st.Won, pct, "-", "-", matches)
}

func (p *profileScreen) MinSize() (int, int) { return 76, 16 }

func (p *profileScreen) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "n" && !p.env.Player.Guest {
		return p.env.Push(ui.Route{Page: ui.Name, Rename: true})
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "h" && !p.env.Player.Guest {
		return p.env.Push(ui.Route{Page: ui.History})
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
			if g.AtTable() {
				b.WriteString(p.tableRow(g.Title(), p.tables[g.Game.Name]))
				continue
			}
			st := p.stats[g.Key()]
			pct, best, bt := "-", "-", "-"
			if st.Played > 0 {
				pct = fmt.Sprintf("%d%%", st.Won*100/st.Played)
				if g.Game.Points && st.Won > 0 {
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
		rl := p.ratingLine()
		b.WriteString(rl)
		used := 4 + len(p.env.Games.Entries()) + 3 + strings.Count(rl, "\n")
		b.WriteString("\n" + strings.Join(p.raceLines(max(p.env.Height-used-2, 1)), "\n") + "\n")
	}
	b.WriteString("\n" + ui.FaintStyle.Render("Streak: days in a row you won today's deal, now/best. Tables: matches won/all.") + "\n")
	if p.env.Player.Guest {
		b.WriteString(ui.FaintStyle.Render("Any key to go back."))
	} else {
		b.WriteString(ui.HelpBar(p.env.Width, "h", "history and replays", "n", "change your name", "any other key", "back"))
	}
	return b.String()
}
