package command

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"sshuffle/arcade/deals"
	"sshuffle/internal/format"
	"sshuffle/store"
)

func init() {
	register(command{names: []string{"leaderboard", "top"}, usage: "GAME [--daily|--all-time] [--friends] [--limit N]",
		help: "a game's board: all time, or today's deal; for spite or kings, its ratings", run: leaderboard})
}

// Limits on a board's length.
const (
	defaultLimit = 20
	maxLimit     = 100
)

type boardValue struct {
	Game    string     `json:"game"`
	Title   string     `json:"title"`
	Board   string     `json:"board"`          // "all-time" or "daily"
	Day     string     `json:"day,omitempty"`  // daily: "2026-11-30" (UTC)
	Spec    string     `json:"spec,omitempty"` // daily: today's deal
	Friends bool       `json:"friends"`        // only the caller and whom they follow
	Points  bool       `json:"points"`         // the board ranks by points after won/lost
	Rows    []boardRow `json:"rows"`
}

type boardRow struct {
	Rank        int    `json:"rank"` // the place on the whole board, friends or not
	Name        string `json:"name"`
	Won         bool   `json:"won"`
	Score       int    `json:"score"`
	TimeSeconds int64  `json:"time_seconds"`
	Moves       int    `json:"moves"`
}

func (v boardValue) Text() string {
	var b strings.Builder
	which := "all time"
	if v.Board == "daily" {
		which = "today's deal (" + v.Day + ", " + v.Spec + ")"
	}
	if v.Friends {
		which += ", you and whom you follow"
	}
	fmt.Fprintf(&b, "%s: %s\n", v.Title, which)
	for _, row := range v.Rows {
		won := "lost"
		if row.Won {
			won = "won"
		}
		score := ""
		if v.Points {
			score = fmt.Sprintf("%6d pts", row.Score)
		}
		fmt.Fprintf(&b, "%4d. %-20s %-4s %s %8s %5d moves\n", row.Rank, row.Name, won, score,
			format.Duration(time.Duration(row.TimeSeconds)*time.Second), row.Moves)
	}
	if len(v.Rows) == 0 {
		b.WriteString("  nobody yet\n")
	}
	return b.String()
}

func leaderboard(r Request, name string, args []string) (value, error) {
	usage := name + " GAME [--daily|--all-time] [--friends] [--limit N] (for example: " + name + " klondike/draw1)"
	var daily, allTime, friends bool
	limit := defaultLimit
	rest, err := flags(usage, args,
		map[string]*bool{"--daily": &daily, "--all-time": &allTime, "--friends": &friends},
		map[string]*int{"--limit": &limit})
	if err != nil {
		return nil, err
	}
	switch {
	case len(rest) != 1:
		return nil, refuse(usage, "%s needs one game", name)
	case daily && allTime:
		return nil, refuse(usage, "Pick one of --daily and --all-time.")
	case limit < 1 || limit > maxLimit:
		return nil, refuse(usage, "--limit is from 1 to %d.", maxLimit)
	case friends && r.ID == "":
		return nil, refuse(usage, "Guests follow nobody: connect with an SSH key for a friends board.")
	}
	if g, ok := r.Games.Entry(rest[0]); ok && g.AtTable() {
		return ratingBoard(r, usage, g, daily, friends, limit)
	}
	g, ok := entry(r.Games, rest[0])
	if !ok {
		return nil, unknownGame(r.Games, rest[0])
	}
	v := boardValue{Game: g.Key(), Title: g.Title(), Board: "all-time", Friends: friends, Points: g.Game.Points, Rows: []boardRow{}}
	day := ""
	if daily {
		spec, today, err := deals.Today(r.ctx(), r.Store, r.Pools, g, r.Now())
		if err != nil {
			return nil, fail("today's deal", err)
		}
		day, v.Board, v.Day, v.Spec = today, "daily", today, spec.String()
	}
	if friends {
		rows, err := friendsBoard(r, g.Key(), day, limit)
		if err != nil {
			return nil, fail("the leaderboard", err)
		}
		v.Rows = rows
		return v, nil
	}
	results, err := r.Store.Board(r.ctx(), g.Key(), day, limit)
	if err != nil {
		return nil, fail("the leaderboard", err)
	}
	for i, res := range results {
		v.Rows = append(v.Rows, row(i+1, res.Name, res))
	}
	return v, nil
}

func row(rank int, name string, res store.Result) boardRow {
	return boardRow{Rank: rank, Name: playerName(name), Won: res.Won, Score: res.Score,
		TimeSeconds: seconds(res.Elapsed), Moves: res.Moves}
}

// friendsBoard is the caller's entry and those of the accounts they
// follow, each at its place on the whole board: read entry by entry, so
// its cost is the follow list's, not the board's.
func friendsBoard(r Request, key, day string, limit int) ([]boardRow, error) {
	ids, err := r.Store.Following(r.ctx(), r.ID)
	if err != nil {
		return nil, err
	}
	rows := []boardRow{}
	for _, id := range append(ids, r.ID) {
		place, res, err := r.Store.Rank(r.ctx(), id, key, day)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		name := res.Name
		if acc, err := r.Store.Account(r.ctx(), id); err == nil && acc.Name != "" {
			name = acc.Name
		}
		rows = append(rows, row(place, name, res))
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Rank < rows[j].Rank })
	return rows[:min(len(rows), limit)], nil
}
