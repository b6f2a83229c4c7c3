package command

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"sshuffle/internal/format"
	"sshuffle/store"
)

func init() {
	register(command{names: []string{"stats"}, usage: "[NAME]", help: "your stats for every game, or NAME's", run: stats})
}

type statsValue struct {
	Name  string      `json:"name"`
	Games []gameStats `json:"games"`
}

type gameStats struct {
	Game      string  `json:"game"` // the game's key: "klondike/draw1"
	Title     string  `json:"title"`
	Played    int     `json:"played"` // every game, abandoned ones too
	Won       int     `json:"won"`
	Abandoned int     `json:"abandoned"` // left for another deal before the end
	WinRate   float64 `json:"win_rate"`  // won / played, 0 to 1
	// BestScore is null for a game that keeps no score, and until a game
	// is won; BestTimeSeconds is null until a game is won.
	BestScore       *int   `json:"best_score"`
	BestTimeSeconds *int64 `json:"best_time_seconds"`
	Streak          streak `json:"streak"` // days in a row today's deal was won
	// A table game's matches seen to their end, and won; null for a
	// solitaire.
	Matches    *int `json:"matches,omitempty"`
	MatchesWon *int `json:"matches_won,omitempty"`
	// A table game's rating (docs/playing.md, "Ratings"): a newcomer's
	// 1500 with deviation 350 before any rated game; absent for a
	// solitaire. RatedGames counts the rated games.
	Rating      *float64 `json:"rating,omitempty"`
	Deviation   *float64 `json:"deviation,omitempty"`
	Provisional *bool    `json:"provisional,omitempty"`
	RatedGames  *int     `json:"games,omitempty"`
}

func (v statsValue) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", v.Name)
	fmt.Fprintf(&b, "%-16s %6s %5s %5s %5s %6s %8s %7s\n", "game", "played", "won", "left", "win%", "best", "time", "streak")
	for _, g := range v.Games {
		best, bt := "-", "-"
		if g.BestScore != nil {
			best = fmt.Sprint(*g.BestScore)
		}
		if g.BestTimeSeconds != nil {
			bt = format.Duration(time.Duration(*g.BestTimeSeconds) * time.Second)
		}
		rate := "-"
		if g.Played > 0 {
			rate = fmt.Sprintf("%.0f%%", g.WinRate*100)
		}
		sk := fmt.Sprintf("%d/%d", g.Streak.Current, g.Streak.Best)
		if g.Matches != nil {
			sk = fmt.Sprintf("m %d/%d", *g.MatchesWon, *g.Matches)
		}
		fmt.Fprintf(&b, "%-16s %6d %5d %5d %5s %6s %8s %7s\n", g.Game, g.Played, g.Won, g.Abandoned, rate, best, bt, sk)
	}
	b.WriteString("left: games left for another deal. streak: days in a row today's deal was won, now/best;\n")
	b.WriteString("at a table game, m: matches won/played.\n")
	b.WriteString(ratingLines(v.Games))
	// A table game's games and matches in words too: a match is several
	// games, and a rematch is a match of its own.
	for _, g := range v.Games {
		if g.Matches != nil && g.Played > 0 {
			fmt.Fprintf(&b, "%s: %s (%d won), %s (%d won).\n", g.Title, count(g.Played, "game", "games"), g.Won,
				count(*g.Matches, "match", "matches"), *g.MatchesWon)
		}
	}
	return b.String()
}

func stats(r Request, name string, args []string) (value, error) {
	usage := name + " [NAME]"
	rest, err := flags(usage, args, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(rest) > 1 {
		return nil, refuse(usage, "%s takes at most one name", name)
	}
	var acc store.Account
	switch {
	case len(rest) == 1:
		acc, err = r.Store.AccountByName(r.ctx(), rest[0])
		if errors.Is(err, store.ErrNotFound) {
			return nil, refuse(usage, "There is no player named %q.", format.Clean(rest[0], store.MaxNameLen))
		}
	case r.ID == "":
		return nil, refuse(usage, "Guests have no stats: connect with an SSH key, or name a player.")
	default:
		acc, err = r.Store.Account(r.ctx(), r.ID)
		if errors.Is(err, store.ErrNotFound) {
			acc, err = store.Account{ID: r.ID}, nil // no games yet: all zero
		}
	}
	if err != nil {
		return nil, fail("stats", err)
	}
	all, err := r.Store.Stats(r.ctx(), acc.ID)
	if err != nil {
		return nil, fail("stats", err)
	}
	v := statsValue{Name: playerName(acc.Name), Games: []gameStats{}}
	tables, err := r.Store.TableStats(r.ctx(), acc.ID)
	if err != nil {
		return nil, fail("stats", err)
	}
	ratings, err := ratingsOf(r, acc.ID)
	if err != nil {
		return nil, fail("stats", err)
	}
	for _, e := range r.Games.Entries() {
		if e.AtTable() {
			var st store.TableStats
			for _, t := range tables {
				if t.Game == e.Game.Name {
					st = t
				}
			}
			g := gameStats{Game: e.Key(), Title: e.Title(), Played: st.Played, Won: st.Won,
				Matches: &st.Matches, MatchesWon: &st.MatchesWon}
			if st.Played > 0 {
				g.WinRate = float64(st.Won) / float64(st.Played)
			}
			tr := tableRatingOf(ratings, e.Game.Name)
			g.Rating, g.Deviation, g.Provisional, g.RatedGames = &tr.Rating, &tr.Deviation, &tr.Provisional, &tr.Games
			v.Games = append(v.Games, g)
			continue
		}
		if !e.Playable() {
			continue
		}
		st := all[e.Key()]
		g := gameStats{Game: e.Key(), Title: e.Title(), Played: st.Played, Won: st.Won, Abandoned: st.Abandoned}
		if st.Played > 0 {
			g.WinRate = float64(st.Won) / float64(st.Played)
		}
		if e.Game.Points && st.Won > 0 {
			best := st.BestScore
			g.BestScore = &best
		}
		if st.BestTime > 0 {
			bt := seconds(st.BestTime)
			g.BestTimeSeconds = &bt
		}
		sk, err := r.Store.Streak(r.ctx(), acc.ID, e.Key(), r.Now())
		if err != nil {
			return nil, fail("stats", err)
		}
		g.Streak = streak{Current: sk.Current, Best: sk.Best}
		v.Games = append(v.Games, g)
	}
	return v, nil
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
