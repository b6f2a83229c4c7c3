package badger

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/engine"
	"sshuffle/store"
)

// A history is read from the records already kept, newest first: the
// account's results (R), races (C) and table games (T), whose keys all
// start with the finishing time, merged. Nothing more is written for it
// but a result's moves (M), beside the result.

// resultMoves are the moves of a result, kept under movesKey.
type resultMoves struct {
	Actions []engine.Action `json:"actions"`
	Times   []time.Duration `json:"times,omitempty"`
	Options map[string]bool `json:"options,omitempty"`
}

// movesKey is the key of the moves of the result under rk.
func movesKey(rk []byte) []byte {
	k := append([]byte(nil), rk...)
	k[0] = kMoves
	return k
}

func whenBytes(t time.Time) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], timeKey(t))
	return b[:]
}

// source is one kind of record of an account, read backwards.
type source struct {
	kind string
	p    []byte
	it   *badger.Iterator
	head *store.HistoryEntry
}

// History returns the account's finished games, newest first.
func (s *Store) History(ctx context.Context, account string, q store.HistoryQuery) ([]store.HistoryEntry, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	var after time.Time
	if q.After != "" {
		var ok bool
		if _, after, ok = store.ParseHistoryID(q.After); !ok {
			return nil, fmt.Errorf("%w: history id %q", store.ErrInvalid, q.After)
		}
	}
	if len(q.Game) > store.MaxKeyLen {
		return nil, fmt.Errorf("%w: game name", store.ErrInvalid)
	}
	n := min(max(q.N, 0), store.MaxBoard)
	out := []store.HistoryEntry{}
	if n == 0 {
		return out, nil
	}
	err := s.view(ctx, func(txn *badger.Txn) error {
		srcs := []*source{
			{kind: store.HistorySolitaire, p: prefix(kResult, account)},
			{kind: store.HistoryRace, p: prefix(kRace, account)},
			{kind: store.HistoryTable, p: prefix(kTableGame, account)},
		}
		for _, src := range srcs {
			src.it = txn.NewIterator(badger.IteratorOptions{Prefix: src.p, Reverse: true, PrefetchValues: true, PrefetchSize: min(n, 100)})
			defer src.it.Close()
			// Reverse iteration with a prefix starts from just past
			// every key it is to read.
			if q.After != "" {
				start := append(append(append([]byte(nil), src.p...), whenBytes(after)...), 0xff)
				src.it.Seek(start)
			} else {
				src.it.Seek(append(src.p[:len(src.p)-1:len(src.p)-1], src.p[len(src.p)-1]+1))
			}
			if err := s.advance(txn, account, src, q); err != nil {
				return err
			}
		}
		for len(out) < n {
			var next *source
			for _, src := range srcs {
				if src.head != nil && (next == nil || src.head.ID > next.head.ID) {
					next = src
				}
			}
			if next == nil {
				break
			}
			out = append(out, *next.head)
			next.it.Next()
			if err := s.advance(txn, account, next, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// advance sets src.head to the next entry of src that q lists, from where
// its iterator stands, or to nil at its end.
func (s *Store) advance(txn *badger.Txn, account string, src *source, q store.HistoryQuery) error {
	src.head = nil
	for ; src.it.Valid(); src.it.Next() {
		item := src.it.Item()
		key := item.KeyCopy(nil)
		if len(key) < len(src.p)+8 {
			return fmt.Errorf("%w: history key %x of %s", store.ErrCorrupt, key, account)
		}
		finished := time.Unix(0, int64(binary.BigEndian.Uint64(key[len(src.p):])^(1<<63)))
		if !q.Since.IsZero() && finished.Before(q.Since) {
			return nil // older ones follow
		}
		var e store.HistoryEntry
		err := item.Value(func(v []byte) error {
			var err error
			e, err = entryOf(src.kind, v, fmt.Sprintf("%s %x of %s", src.kind, key[len(src.p):], account))
			return err
		})
		if err != nil {
			return err
		}
		if (q.After != "" && e.ID >= q.After) || (q.Game != "" && e.Game != q.Game) {
			continue
		}
		if e.Kind == store.HistorySolitaire {
			inRace, err := raceOfResult(txn, account, e.Result)
			if err != nil {
				return err
			}
			if inRace {
				continue // listed as its race's
			}
		}
		if e.Kind == store.HistoryRace {
			r, err := raceResult(txn, account, *e.Race)
			if err != nil {
				return err
			}
			e.Result = r
		}
		src.head = &e
		return nil
	}
	return nil
}

// entryOf decodes a record of a kind into its history entry.
func entryOf(kind string, v []byte, what string) (store.HistoryEntry, error) {
	e := store.HistoryEntry{Kind: kind}
	switch kind {
	case store.HistorySolitaire:
		var r store.Result
		if err := decode(v, what, &r); err != nil {
			return e, err
		}
		e.ID, e.Game, e.Finished, e.Result = store.ResultID(r), store.GameOfKey(r.Key), r.Finished, &r
	case store.HistoryRace:
		var r store.RaceRecord
		if err := decode(v, what, &r); err != nil {
			return e, err
		}
		e.ID, e.Game, e.Finished, e.Race = store.RaceID(r), store.GameOfKey(r.Key), r.Finished, &r
	default:
		var g store.TableGame
		if err := decode(v, what, &g); err != nil {
			return e, err
		}
		e.ID, e.Game, e.Finished, e.Table = store.TableGameID(g), g.Game, g.Finished, &g
	}
	return e, nil
}

// raceOfResult: the account has a race finished when r was, on r's deal
// (the race recorded r as the racer's result).
func raceOfResult(txn *badger.Txn, account string, r *store.Result) (bool, error) {
	p := append(prefix(kRace, account), whenBytes(r.Finished)...)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		var race store.RaceRecord
		if err := it.Item().Value(func(v []byte) error {
			return decode(v, "a race of "+account, &race)
		}); err != nil {
			return false, err
		}
		if race.Spec == r.Spec {
			return true, nil
		}
	}
	return false, nil
}

// raceResult is the account's result of a race, or nil if none is kept.
func raceResult(txn *badger.Txn, account string, race store.RaceRecord) (*store.Result, error) {
	k := append(append(prefix(kResult, account), whenBytes(race.Finished)...), race.Spec...)
	var r store.Result
	err := getJSON(txn, k, "the race result of "+account, &r)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// withMoves adds the moves kept beside the result under rk.
func withMoves(txn *badger.Txn, rk []byte, r *store.Result) error {
	var m resultMoves
	err := getJSON(txn, movesKey(rk), "the moves of a result of "+r.Account, &m)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	r.Actions, r.Times, r.Options = m.Actions, m.Times, m.Options
	return nil
}

// HistoryGame returns the account's game with this id, whole.
func (s *Store) HistoryGame(ctx context.Context, account, id string) (store.HistoryEntry, error) {
	if err := store.CheckID(account); err != nil {
		return store.HistoryEntry{}, err
	}
	kind, finished, ok := store.ParseHistoryID(id)
	if !ok {
		return store.HistoryEntry{}, fmt.Errorf("%w: history id %q", store.ErrInvalid, id)
	}
	var kb byte
	switch kind {
	case store.HistorySolitaire:
		kb = kResult
	case store.HistoryRace:
		kb = kRace
	default:
		kb = kTableGame
	}
	var out store.HistoryEntry
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := append(prefix(kb, account), whenBytes(finished)...)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			var e store.HistoryEntry
			if err := item.Value(func(v []byte) error {
				var err error
				e, err = entryOf(kind, v, fmt.Sprintf("%s %s of %s", kind, id, account))
				return err
			}); err != nil {
				return err
			}
			if e.ID != id {
				continue
			}
			switch kind {
			case store.HistorySolitaire:
				if err := withMoves(txn, item.KeyCopy(nil), e.Result); err != nil {
					return err
				}
			case store.HistoryRace:
				for _, x := range e.Race.Racers {
					if x.Ghost || x.Account == "" {
						continue
					}
					r, err := raceResult(txn, x.Account, *e.Race)
					if err != nil {
						return err
					}
					if r == nil {
						continue
					}
					k := append(append(prefix(kResult, x.Account), whenBytes(e.Race.Finished)...), e.Race.Spec...)
					if err := withMoves(txn, k, r); err != nil {
						return err
					}
					if x.Account == account {
						e.Result = r
					}
					e.Racers = append(e.Racers, *r)
				}
			}
			out = e
			return nil
		}
		return fmt.Errorf("history game %s of %s: %w", id, account, store.ErrNotFound)
	})
	if err != nil {
		return store.HistoryEntry{}, err
	}
	return out, nil
}
