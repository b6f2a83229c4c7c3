package nats

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"sshuffle/engine/rating"
	"sshuffle/store"
)

// ratingKey is an account's rating at one game, in the records bucket so
// that a rated game's copies, stats and ratings are one batch. The board
// of a game is every y.*.<game>, read and sorted: one key a rating means
// no board entry to move in step with it.
func ratingKey(account, game string) string { return key("y", tok(account), tok(game)) }

func checkGame(game string) error {
	if game == "" || len(game) > store.MaxKeyLen || strings.ContainsRune(game, 0) {
		return fmt.Errorf("%w: game %q", store.ErrInvalid, game)
	}
	return nil
}

func defaultRating(game string) store.Rating {
	d := rating.Default()
	return store.Rating{Game: game, Rating: d.Rating, Deviation: d.Deviation, Volatility: d.Volatility}
}

// decodeRating reads a kept rating; a missing one is a newcomer's.
func decodeRating(e entry, account, game string) (store.Rating, error) {
	r := defaultRating(game)
	if e.found() {
		if err := decode(e.val, "rating of "+account, &r); err != nil {
			return store.Rating{}, err
		}
	}
	r.Game, r.Account, r.Name = game, account, ""
	return r, nil
}

// checkRated checks what a rated game needs beyond any table game (the
// Badger backend's checks).
func checkRated(g store.TableGame) error {
	bad := func(what string) error {
		return fmt.Errorf("%w: rated table game %q: %s", store.ErrInvalid, g.Code, what)
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

// rateTableGame reads the ratings of a rated game's people, computes the
// game's period with rating.RateGame and returns the ops that keep the new
// ratings of those in fresh (not counted before), at the revisions read,
// and fills in g's seats' ratings before and after for the copies kept.
func (s *Store) rateTableGame(ctx context.Context, g *store.TableGame, fresh map[string]bool) ([]op, error) {
	var keys []string
	for _, x := range g.Seats {
		if x.Account != "" {
			keys = append(keys, ratingKey(x.Account, g.Game))
		}
	}
	es, err := s.records.getAll(ctx, keys...)
	if err != nil {
		return nil, err
	}
	seats := make([]rating.Seat, len(g.Seats))
	places := make([]int, len(g.Seats))
	before := make([]store.Rating, len(g.Seats))
	read := make([]entry, len(g.Seats))
	j := 0
	for i, x := range g.Seats {
		places[i] = x.Place
		if x.Account == "" {
			seats[i] = rating.Seat{Rating: rating.Rating{Rating: x.Rating.Rating, Deviation: x.Rating.Deviation,
				Volatility: x.Rating.Volatility}.Clean(), Fixed: true}
			continue
		}
		read[i] = es[j]
		j++
		r, err := decodeRating(read[i], x.Account, g.Game)
		if err != nil {
			return nil, err
		}
		before[i] = r
		seats[i] = rating.Seat{Rating: rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}}
	}
	after, err := rating.RateGame(seats, places)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
	var ops []op
	seatsCopy := slices.Clone(g.Seats)
	for i, x := range g.Seats {
		if x.Account == "" {
			sr := *x.Rating
			sr.After, sr.AfterDeviation = 0, 0
			seatsCopy[i].Rating = &sr
			continue
		}
		seatsCopy[i].Rating = &store.SeatRating{Rating: before[i].Rating, Deviation: before[i].Deviation,
			Volatility: before[i].Volatility, After: after[i].Rating, AfterDeviation: after[i].Deviation}
		if !fresh[x.Account] {
			continue
		}
		next := store.Rating{Game: g.Game, Rating: after[i].Rating, Deviation: after[i].Deviation,
			Volatility: after[i].Volatility, Games: before[i].Games + 1, Last: g.Finished}
		v, err := encode("rating of "+x.Account, next)
		if err != nil {
			return nil, err
		}
		ops = append(ops, read[i].set(v))
	}
	g.Seats = seatsCopy
	return ops, nil
}

// Rating is the account's rating at game, a newcomer's if it has none.
func (s *Store) Rating(ctx context.Context, account, game string) (store.Rating, error) {
	if err := store.CheckID(account); err != nil {
		return store.Rating{}, err
	}
	if err := checkGame(game); err != nil {
		return store.Rating{}, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return store.Rating{}, err
	}
	defer done()
	e, err := s.records.get(ctx, ratingKey(account, game))
	if err != nil {
		return store.Rating{}, err
	}
	return decodeRating(e, account, game)
}

// Ratings are the account's ratings at every game it has been rated at,
// by game name.
func (s *Store) Ratings(ctx context.Context, account string) ([]store.Rating, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.records.list(ctx, key("y", tok(account), "*"))
	if err != nil {
		return nil, err
	}
	out := []store.Rating{}
	for _, e := range es {
		game, err := lastPart(e.key)
		if err != nil {
			return nil, err
		}
		r, err := decodeRating(e, account, game)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b store.Rating) int { return strings.Compare(a.Game, b.Game) })
	return out, nil
}

// RatingBoard returns up to n ratings at game, highest first (ties by
// account id), each with the account's current name.
func (s *Store) RatingBoard(ctx context.Context, game string, n int) ([]store.Rating, error) {
	if err := checkGame(game); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.Rating{}
	if n == 0 {
		return out, nil
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	es, err := s.records.list(ctx, key("y", "*", tok(game)))
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		parts := strings.Split(e.key, ".")
		if len(parts) != 3 {
			return nil, fmt.Errorf("%w: rating key %q", store.ErrCorrupt, e.key)
		}
		account, err := untok(parts[1])
		if err != nil {
			return nil, fmt.Errorf("%w: rating key %q", store.ErrCorrupt, e.key)
		}
		r, err := decodeRating(e, account, game)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b store.Rating) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), strings.Compare(a.Account, b.Account))
	})
	out = out[:min(n, len(out))]
	names := make([]store.Result, len(out))
	for i, r := range out {
		names[i].Account = r.Account
	}
	if err := s.currentNames(ctx, names); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Name = names[i].Name
	}
	return out, nil
}
