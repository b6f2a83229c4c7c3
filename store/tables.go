package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"sshuffle/engine/rating"
)

// What every backend does alike with a finished table game: the checks of
// what it is asked to keep, and the arithmetic of a rated game's ratings.
// A backend reads the ratings before and writes the ratings after, each in
// its own transaction or batch, and leaves the rest to these.

// CheckTableGame checks a finished table game (and, when it is rated, what
// a rated game needs beyond any).
func CheckTableGame(g TableGame) error {
	bad := func(what string) error { return fmt.Errorf("%w: table game %q: %s", ErrInvalid, g.Code, what) }
	switch {
	case g.Code == "" || len(g.Code) > 16:
		return bad("code")
	case g.Game == "" || len(g.Game) > MaxKeyLen:
		return bad("game")
	case len(g.Seats) == 0 || len(g.Seats) > MaxTableSeats:
		return bad("seats")
	case len(g.Record) == 0 || len(g.Record) > MaxTableRecord || !json.Valid(g.Record):
		return bad("record")
	case g.Finished.IsZero() || g.GameNo < 0:
		return bad("time or game number")
	}
	if err := CheckSpec(g.Spec); err != nil {
		return err
	}
	for _, x := range g.Seats {
		if len(x.Name) > 64 || len(x.Strength) > 16 || (x.Account != "" && CheckID(x.Account) != nil) {
			return bad("a seat")
		}
	}
	if g.Rated {
		return checkRated(g)
	}
	return nil
}

// checkRated checks what a rated game needs beyond any table game.
func checkRated(g TableGame) error {
	bad := func(what string) error {
		return fmt.Errorf("%w: rated table game %q: %s", ErrInvalid, g.Code, what)
	}
	seen := map[string]bool{}
	for _, x := range g.Seats {
		if x.Place < 1 || x.Place > len(g.Seats) {
			return bad("a seat without a place")
		}
		if x.Account == "" {
			if x.Rating == nil {
				return bad("a computer without a rating")
			}
			continue
		}
		if seen[x.Account] {
			return bad("an account in two seats")
		}
		seen[x.Account] = true
	}
	return nil
}

// CheckTableCode checks a live table's code, as its snapshot is kept under.
func CheckTableCode(code string) error { return CheckField("table code", code, 16) }

// CheckGame checks a table game's name, as ratings are kept under.
func CheckGame(game string) error {
	if game == "" || len(game) > MaxKeyLen || strings.ContainsRune(game, 0) {
		return fmt.Errorf("%w: game %q", ErrInvalid, game)
	}
	return nil
}

// DefaultRating is a newcomer's rating at game.
func DefaultRating(game string) Rating {
	d := rating.Default()
	return Rating{Game: game, Rating: d.Rating, Deviation: d.Deviation, Volatility: d.Volatility}
}

// RateTableGame is a rated game's period: before holds, for each seat of a
// person, the rating they had (the backend read it; ignored for a
// computer's seat, whose rating the seat carries). It fills in g's seats'
// ratings before and after, for the copies kept, and returns each seat's
// new rating for the people in fresh (the game not counted for them
// before), nil for every other seat: what the backend writes.
func RateTableGame(g *TableGame, before []Rating, fresh map[string]bool) ([]*Rating, error) {
	if len(before) != len(g.Seats) {
		return nil, fmt.Errorf("%w: %d ratings for %d seats", ErrInvalid, len(before), len(g.Seats))
	}
	seats := make([]rating.Seat, len(g.Seats))
	places := make([]int, len(g.Seats))
	for i, x := range g.Seats {
		places[i] = x.Place
		if x.Account == "" {
			seats[i] = rating.Seat{Rating: rating.Rating{Rating: x.Rating.Rating, Deviation: x.Rating.Deviation,
				Volatility: x.Rating.Volatility}.Clean(), Fixed: true}
			continue
		}
		r := before[i]
		seats[i] = rating.Seat{Rating: rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}}
	}
	after, err := rating.RateGame(seats, places)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	next := make([]*Rating, len(g.Seats))
	seatsCopy := slices.Clone(g.Seats)
	for i, x := range g.Seats {
		if x.Account == "" {
			sr := *x.Rating
			sr.After, sr.AfterDeviation = 0, 0
			seatsCopy[i].Rating = &sr
			continue
		}
		seatsCopy[i].Rating = &SeatRating{Rating: before[i].Rating, Deviation: before[i].Deviation,
			Volatility: before[i].Volatility, After: after[i].Rating, AfterDeviation: after[i].Deviation}
		if fresh[x.Account] {
			next[i] = &Rating{Game: g.Game, Rating: after[i].Rating, Deviation: after[i].Deviation,
				Volatility: after[i].Volatility, Games: before[i].Games + 1, Last: g.Finished}
		}
	}
	g.Seats = seatsCopy
	return next, nil
}
