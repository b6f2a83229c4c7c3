package profile

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/arcade/ui"
	"sshuffle/games"
	"sshuffle/internal/format"
	"sshuffle/store"
)

// boardScreen shows a game's leaderboards: today's deal and all time.
type boardScreen struct {
	env   *ui.Env
	info  games.Entry
	today []store.Result
	all   []store.Result
	err   string
}

// NewBoards is a game's leaderboards: today's deal and all time.
func NewBoards(e *ui.Env, info games.Entry) ui.Screen {
	b := &boardScreen{env: e, info: info}
	var err1, err2 error
	b.today, err1 = e.Store.Board(e.Ctx(), info.Key(), store.Day(e.Now()), 8)
	b.all, err2 = e.Store.Board(e.Ctx(), info.Key(), "", 8)
	if err1 != nil || err2 != nil {
		b.err = "The leaderboards are not available right now."
	}
	return b
}

func (b *boardScreen) MinSize() (int, int) { return 64, 24 }

func (b *boardScreen) Update(msg tea.Msg) tea.Cmd {
	if ui.Pressed(msg) {
		return b.env.Back()
	}
	return nil
}

func (b *boardScreen) rows(title string, rs []store.Result) string {
	var sb strings.Builder
	sb.WriteString(ui.KeyStyle.Render(title) + "\n")
	if len(rs) == 0 {
		sb.WriteString(ui.FaintStyle.Render("  nobody yet") + "\n")
	}
	for i, r := range rs {
		won := "lost"
		if r.Won {
			won = "won "
		}
		pts := ""
		if b.info.Game.Points {
			pts = fmt.Sprintf("%6d pts", r.Score)
		}
		name := format.Clean(r.Name, 20)
		if name == "" {
			name = "(no name)"
		}
		line := fmt.Sprintf("  %2d. %-20s %s %s %8s %5d moves", i+1, name, won, pts, format.Duration(r.Elapsed), r.Moves)
		if r.Account == b.env.Player.ID {
			line = ui.OkStyle.Render(line)
		}
		sb.WriteString(line + "\n")
	}
	return sb.String()
}

func (b *boardScreen) View() string {
	var sb strings.Builder
	sb.WriteString(ui.TitleStyle.Render("Leaderboards: "+b.info.Title()) + "\n\n")
	if b.err != "" {
		sb.WriteString(ui.WarnStyle.Render(b.err) + "\n")
	} else {
		sb.WriteString(b.rows("Today's deal ("+store.Day(b.env.Now())+")", b.today) + "\n")
		sb.WriteString(b.rows("All time", b.all))
	}
	if !b.env.Player.Guest {
		if st, err := b.env.Store.Streak(b.env.Ctx(), b.env.Player.ID, b.info.Key(), b.env.Now()); err == nil {
			sb.WriteString(fmt.Sprintf("\nYour streak: %d day(s) in a row (best %d).\n", st.Current, st.Best))
		}
	}
	sb.WriteString("\n" + ui.FaintStyle.Render("Won games first, then "+rankWords(b.info)+". Any key to go back."))
	return sb.String()
}

func rankWords(info games.Entry) string {
	if info.Game.Points {
		return "points, time, moves"
	}
	return "time, moves"
}
