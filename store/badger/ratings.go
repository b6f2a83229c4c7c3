package badger

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

// Keys of the ratings (lower-case kinds, apart from the upper-case ones
// other records use):
//
//	y id 0 game              -> store.Rating JSON (without Account and Name)
//	Y game 0 rank(8) id      -> "" (the board: rank orders highest first)
const (
	kRating      = 'y'
	kRatingBoard = 'Y'
)

// ratingRank orders ratings highest first under a byte-wise sort: the
// float's bits, made to sort as the numbers do, then inverted.
func ratingRank(r float64) []byte {
	bits := math.Float64bits(r)
	if bits&(1<<63) != 0 {
		bits = ^bits
	} else {
		bits |= 1 << 63
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], ^bits)
	return b[:]
}

func ratingBoardKey(game string, r float64, account string) []byte {
	k := prefix(kRatingBoard, game)
	k = append(k, ratingRank(r)...)
	return append(k, account...)
}

func readRating(txn *badger.Txn, account, game string) (store.Rating, error) {
	r := store.DefaultRating(game)
	if err := getJSON(txn, dbKey(kRating, account, game), "rating of "+account, &r); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return store.DefaultRating(game), nil
		}
		return r, err
	}
	r.Game = game
	return r, nil
}

// rateTableGame moves the ratings of a rated game's people, inside
// RecordTableGame's transaction, and fills in the seats' ratings before and
// after for the copies it keeps. Only the people in fresh (not seen before)
// are moved: the game counts once.
func rateTableGame(txn *badger.Txn, g *store.TableGame, fresh map[string]bool) error {
	before := make([]store.Rating, len(g.Seats))
	for i, x := range g.Seats {
		if x.Account == "" {
			continue
		}
		r, err := readRating(txn, x.Account, g.Game)
		if err != nil {
			return err
		}
		before[i] = r
	}
	next, err := store.RateTableGame(g, before, fresh)
	if err != nil {
		return err
	}
	for i, r := range next {
		if r == nil {
			continue
		}
		account, old := g.Seats[i].Account, before[i]
		if old.Games > 0 {
			if err := txn.Delete(ratingBoardKey(g.Game, old.Rating, account)); err != nil {
				return fmt.Errorf("store: drop rating board entry: %w", err)
			}
		}
		if err := setJSON(txn, dbKey(kRating, account, g.Game), "rating", *r); err != nil {
			return err
		}
		if err := txn.Set(ratingBoardKey(g.Game, r.Rating, account), nil); err != nil {
			return fmt.Errorf("store: write rating board: %w", err)
		}
	}
	return nil
}

// Rating is the account's rating at game, a newcomer's if it has none.
func (s *Store) Rating(ctx context.Context, account, game string) (store.Rating, error) {
	if err := store.CheckID(account); err != nil {
		return store.Rating{}, err
	}
	if err := store.CheckGame(game); err != nil {
		return store.Rating{}, err
	}
	var r store.Rating
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		r, err = readRating(txn, account, game)
		return err
	})
	r.Account = account
	return r, err
}

// Ratings are the account's ratings at every game it has been rated at.
func (s *Store) Ratings(ctx context.Context, account string) ([]store.Rating, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	out := []store.Rating{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := prefix(kRating, account)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			r := store.Rating{Game: string(it.Item().Key()[len(p):])}
			if err := it.Item().Value(func(v []byte) error {
				return decode(v, "rating of "+account, &r)
			}); err != nil {
				return err
			}
			r.Account = account
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b store.Rating) int { return strings.Compare(a.Game, b.Game) })
	return out, nil
}

// RatingBoard returns up to n ratings at game, highest first.
func (s *Store) RatingBoard(ctx context.Context, game string, n int) ([]store.Rating, error) {
	if err := store.CheckGame(game); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.Rating{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := prefix(kRatingBoard, game)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		for it.Rewind(); it.Valid() && len(out) < n; it.Next() {
			k := it.Item().Key()
			if len(k) < len(p)+8 {
				return fmt.Errorf("%w: rating board key of %d bytes", store.ErrCorrupt, len(k))
			}
			account := string(k[len(p)+8:])
			r, err := readRating(txn, account, game)
			if err != nil {
				return err
			}
			r.Account = account
			var a store.Account
			if getJSON(txn, dbKey(kAccount, account), "", &a) == nil {
				r.Name = a.Name
			}
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
