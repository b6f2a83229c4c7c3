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

	"sshuffle/engine/rating"
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

func readRating(txn *badger.Txn, account, game string) (store.Rating, error) {
	r := defaultRating(game)
	if err := getJSON(txn, dbKey(kRating, account, game), "rating of "+account, &r); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return defaultRating(game), nil
		}
		return r, err
	}
	r.Game = game
	return r, nil
}

// checkRated checks what a rated game needs beyond any table game.
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

// rateTableGame moves the ratings of a rated game's people, inside
// RecordTableGame's transaction, and fills in the seats' ratings before and
// after for the copies it keeps. Only the people in fresh (not seen before)
// are moved: the game counts once.
func rateTableGame(txn *badger.Txn, g *store.TableGame, fresh map[string]bool) error {
	seats := make([]rating.Seat, len(g.Seats))
	places := make([]int, len(g.Seats))
	before := make([]store.Rating, len(g.Seats))
	for i, x := range g.Seats {
		places[i] = x.Place
		if x.Account == "" {
			seats[i] = rating.Seat{Rating: rating.Rating{Rating: x.Rating.Rating, Deviation: x.Rating.Deviation,
				Volatility: x.Rating.Volatility}.Clean(), Fixed: true}
			continue
		}
		r, err := readRating(txn, x.Account, g.Game)
		if err != nil {
			return err
		}
		before[i] = r
		seats[i] = rating.Seat{Rating: rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}}
	}
	after, err := rating.RateGame(seats, places)
	if err != nil {
		return fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
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
		old := before[i]
		next := store.Rating{Game: g.Game, Rating: after[i].Rating, Deviation: after[i].Deviation,
			Volatility: after[i].Volatility, Games: old.Games + 1, Last: g.Finished}
		if old.Games > 0 {
			if err := txn.Delete(ratingBoardKey(g.Game, old.Rating, x.Account)); err != nil {
				return fmt.Errorf("store: drop rating board entry: %w", err)
			}
		}
		if err := setJSON(txn, dbKey(kRating, x.Account, g.Game), "rating", next); err != nil {
			return err
		}
		if err := txn.Set(ratingBoardKey(g.Game, next.Rating, x.Account), nil); err != nil {
			return fmt.Errorf("store: write rating board: %w", err)
		}
	}
	g.Seats = seatsCopy
	return nil
}

// Rating is the account's rating at game, a newcomer's if it has none.
func (s *Store) Rating(ctx context.Context, account, game string) (store.Rating, error) {
	if err := store.CheckID(account); err != nil {
		return store.Rating{}, err
	}
	if err := checkGame(game); err != nil {
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
	if err := checkGame(game); err != nil {
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
