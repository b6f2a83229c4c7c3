package solitaire

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// resultScreen is the result of a won game.
type resultScreen struct {
	env    *ui.Env
	info   games.Entry
	r      store.Result
	best   store.Stats
	streak store.Streak // a won daily deal: the streak it makes
	err    error
}

// NewResult builds the screen a Won route asks for.
func NewResult(e *ui.Env, rt ui.Route) ui.Screen {
	rs := &resultScreen{env: e, info: rt.Game, r: rt.Result, err: rt.Err}
	if !e.Player.Guest && rt.Err == nil {
		rs.best, _ = e.Store.StatsFor(e.Ctx(), e.Player.ID, rt.Game.Key())
		if rt.Result.Daily {
			rs.streak, _ = e.Store.Streak(e.Ctx(), e.Player.ID, rt.Game.Key(), e.Now())
		}
	}
	return rs
}

func (r *resultScreen) MinSize() (int, int) { return 50, 14 }

func (r *resultScreen) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "enter", "space", "n":
			return r.env.Go(ui.Route{Page: ui.Play, Game: r.info, Fresh: true})
		case "q", "esc", "m":
			return r.env.Go(ui.Route{Page: ui.Menu})
		}
	}
	return nil
}

func (r *resultScreen) View() string {
	var b strings.Builder
	b.WriteString(ui.TitleStyle.Render("You won "+r.info.Title()+"!") + "\n\n")
	if r.info.Game.Points {
		b.WriteString(fmt.Sprintf("  Score  %d\n", r.r.Score))
	}
	b.WriteString(fmt.Sprintf("  Moves  %d\n  Time   %s\n\n", r.r.Moves, format.Duration(r.r.Elapsed)))
	switch {
	case r.env.Player.Guest:
		b.WriteString(ui.FaintStyle.Render("  Guests' results are not kept.") + "\n")
	case r.err != nil:
		b.WriteString(ui.ErrStyle.Render("  Not saved: the server could not store this result just now.") + "\n")
	default:
		b.WriteString(fmt.Sprintf("  Your best: time %s", format.Duration(r.best.BestTime)))
		if r.info.Game.Points {
			b.WriteString(fmt.Sprintf(", score %d", r.best.BestScore))
		}
		b.WriteString(fmt.Sprintf("   (won %d of %d)\n", r.best.Won, r.best.Played))
		if r.best.BestTime == r.r.Elapsed {
			b.WriteString(ui.OkStyle.Render("  A new personal best time!") + "\n")
		}
		if r.r.Daily && r.streak.Current > 0 {
			days := "days"
			if r.streak.Current == 1 {
				days = "day"
			}
			b.WriteString(ui.OkStyle.Render(fmt.Sprintf("  Today's deal won: a streak of %d %s in a row (best %d).", r.streak.Current, days, r.streak.Best)) + "\n")
		}
	}
	b.WriteString("\n" + ui.HelpBar(r.env.Width, "enter", "another deal", "q", "menu"))
	return b.String()
}
