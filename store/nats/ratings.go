package nats

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"sshuffle/store"
)

// ratingKey is an account's rating at one game, in the records bucket so
// that a rated game's copies, stats and ratings are one batch. The board
// of a game is every y.*.<game>, read and sorted: one key a rating means
// no board entry to move in step with it.
func ratingKey(account, game string) string { return key("y", tok(account), tok(game)) }

// decodeRating reads a kept rating; a missing one is a newcomer's.
func decodeRating(e entry, account, game string) (store.Rating, error) {
	r := store.DefaultRating(game)
	if e.found() {
		if err := decode(e.val, "rating of "+account, &r); err != nil {
			return store.Rating{}, err
		}
	}
	r.Game, r.Account, r.Name = game, account, ""
	return r, nil
}

// rateTableGame reads the ratings of a rated game's people and returns the
// ops that keep the new ratings of those in fresh (not counted before), at
// the revisions read; g's seats get their ratings before and after for the
// copies kept.
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
	before := make([]store.Rating, len(g.Seats))
	read := make([]entry, len(g.Seats))
	j := 0
	for i, x := range g.Seats {
		if x.Account == "" {
			continue
		}
		read[i] = es[j]
		j++
		if before[i], err = decodeRating(read[i], x.Account, g.Game); err != nil {
			return nil, err
		}
	}
	next, err := store.RateTableGame(g, before, fresh)
	if err != nil {
		return nil, err
	}
	var ops []op
	for i, r := range next {
		if r == nil {
			continue
		}
		v, err := encode("rating of "+g.Seats[i].Account, *r)
		if err != nil {
			return nil, err
		}
		ops = append(ops, read[i].set(v))
	}
	return ops, nil
}

// Rating is the account's rating at game, a newcomer's if it has none.
func (s *Store) Rating(ctx context.Context, account, game string) (store.Rating, error) {
	if err := store.CheckID(account); err != nil {
		return store.Rating{}, err
	}
	if err := store.CheckGame(game); err != nil {
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
	if err := store.CheckGame(game); err != nil {
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
