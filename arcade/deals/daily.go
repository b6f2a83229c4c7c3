package arcade

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/store"
)

// dailySaveKey keeps today's deal in progress apart from the player's other
// game of the same kind, so neither overwrites the other.
func dailySaveKey(key string) string { return key + "#daily" }

// openDaily opens today's deal of a game: one per game and settings per
// UTC day, the same for everyone, chosen once and kept in the store.
func openDaily(e *env, info games.Entry) (*gameScreen, error) {
	day := store.Day(e.now())
	text, err := e.store.Daily(info.Key(), day, func() (string, error) {
		// Today's deal is a winnable one wherever the game offers that.
		spec := freshSpec(e, info, games.Options{games.Winnable.Key: true})
		return spec.String(), nil
	})
	if err != nil {
		return nil, fmt.Errorf("today's deal is not available right now")
	}
	spec, err := engine.ParseSpec(text)
	if err != nil {
		return nil, fmt.Errorf("today's deal is damaged in the store")
	}
	if !e.player.Guest {
		data, err := e.store.GetSave(e.player.ID, dailySaveKey(info.Key()))
		if err == nil {
			if g, sv, err := decodeSave(data, info.Game.New); err == nil && g.Spec() == spec {
				s := newGameScreen(e, info, g, sv.Options)
				s.daily, s.day = true, day
				s.prior, s.hints = sv.Elapsed, min(sv.Hints, hintsPerGame)
				s.setMsg(msgInfo, "Resumed today's deal.")
				return s, nil
			}
		} else if !errors.Is(err, store.ErrNotFound) {
			e.log.Error("reading daily save", "error", err.Error())
		}
	}
	s, err := dealSpec(e, info, spec)
	if err != nil {
		return nil, err
	}
	s.daily, s.day = true, day
	s.setMsg(msgInfo, "Today's deal: the same for everyone. Win it to keep your streak.")
	return s, nil
}

// boardScreen shows a game's leaderboards: today's deal and all time.
type boardScreen struct {
	env   *env
	info  games.Entry
	back  screen
	today []store.Result
	all   []store.Result
	err   string
}

func newBoard(e *env, info games.Entry, back screen) *boardScreen {
	b := &boardScreen{env: e, info: info, back: back}
	var err1, err2 error
	b.today, err1 = e.store.Board(info.Key(), store.Day(e.now()), 8)
	b.all, err2 = e.store.Board(info.Key(), "", 8)
	if err1 != nil || err2 != nil {
		b.err = "The leaderboards are not available right now."
	}
	return b
}

func (b *boardScreen) minSize() (int, int) { return 64, 24 }

func (b *boardScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	if pressed(msg) {
		return b.back, nil
	}
	return b, nil
}

func (b *boardScreen) rows(title string, rs []store.Result) string {
	var sb strings.Builder
	sb.WriteString(keyStyle.Render(title) + "\n")
	if len(rs) == 0 {
		sb.WriteString(faintStyle.Render("  nobody yet") + "\n")
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
		name := sanitize(r.Name, 20)
		if name == "" {
			name = "(no name)"
		}
		line := fmt.Sprintf("  %2d. %-20s %s %s %8s %5d moves", i+1, name, won, pts, fmtDuration(r.Elapsed), r.Moves)
		if r.Account == b.env.player.ID {
			line = okStyle.Render(line)
		}
		sb.WriteString(line + "\n")
	}
	return sb.String()
}

func (b *boardScreen) view() string {
	var sb strings.Builder
	sb.WriteString(titleStyle.Render("Leaderboards: "+b.info.Title()) + "\n\n")
	if b.err != "" {
		sb.WriteString(warnStyle.Render(b.err) + "\n")
	} else {
		sb.WriteString(b.rows("Today's deal ("+store.Day(b.env.now())+")", b.today) + "\n")
		sb.WriteString(b.rows("All time", b.all))
	}
	if !b.env.player.Guest {
		if st, err := b.env.store.Streak(b.env.player.ID, b.info.Key(), b.env.now()); err == nil {
			sb.WriteString(fmt.Sprintf("\nYour streak: %d day(s) in a row (best %d).\n", st.Current, st.Best))
		}
	}
	sb.WriteString("\n" + faintStyle.Render("Won games first, then "+rankWords(b.info)+". Any key to go back."))
	return sb.String()
}

func rankWords(info games.Entry) string {
	if info.Game.Points {
		return "points, time, moves"
	}
	return "time, moves"
}
