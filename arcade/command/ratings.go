package command

import (
	"fmt"
	"sort"
	"strings"

	"sshuffle/engine/rating"
	"sshuffle/games"
	"sshuffle/store"
)

// A table game's board is its ratings (docs/playing.md, "Ratings"): the
// players' Glicko-2 ratings, highest first, a provisional one marked.

type ratingBoardValue struct {
	Game    string      `json:"game"`
	Title   string      `json:"title"`
	Board   string      `json:"board"`   // "rating"
	Friends bool        `json:"friends"` // only the caller and whom they follow
	Rows    []ratingRow `json:"rows"`
}

type ratingRow struct {
	Rank        int     `json:"rank"`
	Name        string  `json:"name"`
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	Provisional bool    `json:"provisional"` // deviation above rating.Provisional: shown with a "?"
	Games       int     `json:"games"`       // rated games played
}

func (v ratingBoardValue) Text() string {
	var b strings.Builder
	which := "ratings"
	if v.Friends {
		which += ", you and whom you follow"
	}
	fmt.Fprintf(&b, "%s: %s\n", v.Title, which)
	for _, row := range v.Rows {
		label := rating.Label(rating.Rating{Rating: row.Rating, Deviation: row.Deviation})
		fmt.Fprintf(&b, "%4d. %-20s %6s  deviation %3.0f  %s\n", row.Rank, row.Name, label, row.Deviation,
			count(row.Games, "rated game", "rated games"))
	}
	if len(v.Rows) == 0 {
		b.WriteString("  nobody yet\n")
	} else {
		b.WriteString("? marks a provisional rating: too few rated games to be sure of it yet.\n")
	}
	return b.String()
}

func ratingRowOf(rank int, name string, r store.Rating) ratingRow {
	return ratingRow{Rank: rank, Name: playerName(name), Rating: r.Rating, Deviation: r.Deviation,
		Provisional: rating.Rating{Deviation: r.Deviation}.IsProvisional(), Games: r.Games}
}

// ratingBoard is leaderboard for a table game.
func ratingBoard(r Request, usage string, g games.Entry, daily, friends bool, limit int) (value, error) {
	if daily {
		return nil, refuse(usage, "%s has no deal of the day: its board is its ratings.", g.Title())
	}
	game := g.Game.Name
	v := ratingBoardValue{Game: game, Title: g.Title(), Board: "rating", Friends: friends, Rows: []ratingRow{}}
	if friends {
		ids, err := r.Store.Following(r.ctx(), r.ID)
		if err != nil {
			return nil, fail("the leaderboard", err)
		}
		board, err := r.Store.RatingBoard(r.ctx(), game, store.MaxBoard)
		if err != nil {
			return nil, fail("the leaderboard", err)
		}
		want := map[string]bool{r.ID: true}
		for _, id := range ids {
			want[id] = true
		}
		for i, e := range board {
			if want[e.Account] && len(v.Rows) < limit {
				v.Rows = append(v.Rows, ratingRowOf(i+1, e.Name, e))
			}
		}
		return v, nil
	}
	board, err := r.Store.RatingBoard(r.ctx(), game, limit)
	if err != nil {
		return nil, fail("the leaderboard", err)
	}
	for i, e := range board {
		v.Rows = append(v.Rows, ratingRowOf(i+1, e.Name, e))
	}
	return v, nil
}

// tableRating is a table game's rating as stats shows it.
type tableRating struct {
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	Provisional bool    `json:"provisional"`
	Games       int     `json:"games"` // rated games
}

// ratingsOf are the account's ratings by game name, a newcomer's where it
// has none.
func ratingsOf(r Request, account string) (map[string]store.Rating, error) {
	out := map[string]store.Rating{}
	if account == "" {
		return out, nil
	}
	all, err := r.Store.Ratings(r.ctx(), account)
	if err != nil {
		return nil, err
	}
	for _, x := range all {
		out[x.Game] = x
	}
	return out, nil
}

func tableRatingOf(rs map[string]store.Rating, game string) tableRating {
	x, ok := rs[game]
	if !ok {
		d := rating.Default()
		x = store.Rating{Rating: d.Rating, Deviation: d.Deviation}
	}
	return tableRating{Rating: x.Rating, Deviation: x.Deviation, Games: x.Games,
		Provisional: rating.Rating{Deviation: x.Deviation}.IsProvisional()}
}

// ratingLines are stats' words for the table games' ratings.
func ratingLines(gs []gameStats) string {
	var b strings.Builder
	var rated []gameStats
	for _, g := range gs {
		if g.Rating != nil {
			rated = append(rated, g)
		}
	}
	sort.SliceStable(rated, func(i, j int) bool { return rated[i].Game < rated[j].Game })
	for _, g := range rated {
		label := rating.Label(rating.Rating{Rating: *g.Rating, Deviation: *g.Deviation})
		fmt.Fprintf(&b, "%s rating: %s (deviation %.0f, %s).\n", g.Title, label, *g.Deviation,
			count(*g.RatedGames, "rated game", "rated games"))
	}
	return b.String()
}
