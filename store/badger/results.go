package badger

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

// rankKey is 33 bytes that sort in board order: won first, then higher
// points (if the result ranks by points), less time, fewer moves, earlier finish.
func rankKey(r store.Result) []byte {
	b := make([]byte, 33)
	if !r.Won {
		b[0] = 1
	}
	if r.ByPoints {
		// order-preserving int64 -> uint64, then inverted so higher comes first
		binary.BigEndian.PutUint64(b[1:], math.MaxUint64-(uint64(int64(r.Score))^(1<<63)))
	}
	binary.BigEndian.PutUint64(b[9:], uint64(max(r.Elapsed, 0)))
	binary.BigEndian.PutUint64(b[17:], uint64(max(r.Moves, 0)))
	binary.BigEndian.PutUint64(b[25:], timeKey(r.Finished))
	return b
}

// timeKey orders times as unsigned big-endian integers.
func timeKey(t time.Time) uint64 { return uint64(t.UnixNano()) ^ (1 << 63) }

func resultKey(r store.Result) []byte {
	var when [8]byte
	binary.BigEndian.PutUint64(when[:], timeKey(r.Finished))
	k := prefix(kResult, r.Account)
	k = append(k, when[:]...)
	return append(k, r.Spec...)
}

// RecordResult stores a finished game and, in the same transaction, updates
// the account's stats for r.Key, its daily streak (for a won daily deal) and
// its entries on the all-time board and (for a daily deal) the day's board.
// It returns after the commit is synced to disk. Recording the same result
// (same account, Finished and Spec) again is a no-op.
func (s *Store) RecordResult(ctx context.Context, r store.Result) error {
	if err := store.CheckResult(&r); err != nil {
		return err
	}
	// The moves are kept apart from the result, which boards copy and
	// lists read many of at once.
	moves := resultMoves{Actions: r.Actions, Times: r.Times, Options: r.Options}
	r.Actions, r.Times, r.Options = nil, nil, nil
	val, err := jsonBytes(r)
	if err != nil {
		return err
	}
	rk := resultKey(r)
	return s.update(ctx, func(txn *badger.Txn) error {
		_, err := txn.Get(rk)
		if err == nil {
			return nil // already recorded
		}
		if !errors.Is(err, badger.ErrKeyNotFound) {
			return fmt.Errorf("store: read result: %w", err)
		}
		if err := txn.Set(rk, val); err != nil {
			return fmt.Errorf("store: write result: %w", err)
		}
		if len(moves.Actions) > 0 {
			if err := setJSON(txn, movesKey(rk), "moves of a result", moves); err != nil {
				return err
			}
		}
		if err := addStats(txn, r); err != nil {
			return err
		}
		if r.Daily && r.Won {
			if err := addStreak(txn, r); err != nil {
				return err
			}
		}
		if r.Abandoned {
			return nil
		}
		if err := putBoard(txn, r, "", val); err != nil {
			return err
		}
		if r.Daily {
			return putBoard(txn, r, r.Day, val)
		}
		return nil
	})
}

func addStats(txn *badger.Txn, r store.Result) error {
	k := dbKey(kStats, r.Account, r.Key)
	what := "stats " + r.Key + " of " + r.Account
	var st store.Stats
	if err := getJSONOrZero(txn, k, what, &st); err != nil {
		return err
	}
	// Best score and best time come from won games: a lost or abandoned
	// game may score well on the way and still be no achievement.
	if r.Won && (st.Won == 0 || r.Score > st.BestScore) {
		st.BestScore = r.Score
	}
	st.Played++
	if r.Abandoned {
		st.Abandoned++
	}
	if r.Won {
		st.Won++
		if st.BestTime == 0 || (r.Elapsed > 0 && r.Elapsed < st.BestTime) {
			st.BestTime = r.Elapsed
		}
	}
	st.TotalTime += max(r.Elapsed, 0)
	if r.Finished.After(st.Last) {
		st.Last = r.Finished
	}
	return setJSON(txn, k, what, st)
}

// addStreak counts a won daily deal. A win for the day already counted, or
// for an earlier day, leaves the streak alone; the day after the last counts
// one more; any later day starts again at 1.
func addStreak(txn *badger.Txn, r store.Result) error {
	k := dbKey(kStreak, r.Account, r.Key)
	what := "streak " + r.Key + " of " + r.Account
	var st store.Streak
	if err := getJSONOrZero(txn, k, what, &st); err != nil {
		return err
	}
	day, _ := time.Parse(time.DateOnly, r.Day)
	switch {
	case st.LastDay == "":
		st.Current = 1
	case r.Day <= st.LastDay:
		return nil
	case store.Day(day.AddDate(0, 0, -1)) == st.LastDay:
		st.Current++
	default:
		st.Current = 1
	}
	st.LastDay = r.Day
	st.Best = max(st.Best, st.Current)
	return setJSON(txn, k, what, st)
}

// putBoard keeps r on the board (key, day) if it beats the account's entry.
func putBoard(txn *badger.Txn, r store.Result, day string, val []byte) error {
	ek := dbKey(kEntry, r.Key, day, r.Account)
	rank := rankKey(r)
	old, err := getBytes(txn, ek, "board entry "+r.Key+" "+day+" of "+r.Account)
	switch {
	case err == nil:
		if len(old) != len(rank) {
			return fmt.Errorf("%w: board entry %s %s of %s: %d bytes", store.ErrCorrupt, r.Key, day, r.Account, len(old))
		}
		if bytes.Compare(rank, old) >= 0 {
			return nil // the old entry is as good or better
		}
		if err := txn.Delete(boardKey(r.Key, day, old, r.Account)); err != nil {
			return fmt.Errorf("store: drop board entry: %w", err)
		}
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	if err := txn.Set(ek, rank); err != nil {
		return fmt.Errorf("store: write board entry: %w", err)
	}
	if err := txn.Set(boardKey(r.Key, day, rank, r.Account), val); err != nil {
		return fmt.Errorf("store: write board: %w", err)
	}
	return nil
}

func boardKey(key, day string, rank []byte, account string) []byte {
	k := prefix(kBoard, key, day)
	k = append(k, rank...)
	return append(k, account...)
}

func jsonBytes(r store.Result) ([]byte, error) {
	b, err := jsonMarshal(r)
	if err != nil {
		return nil, fmt.Errorf("store: encode result: %w", err)
	}
	return b, nil
}

// Stats returns the account's stats for every key it has played.
func (s *Store) Stats(ctx context.Context, account string) (map[string]store.Stats, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	out := map[string]store.Stats{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := prefix(kStats, account)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p, PrefetchValues: true, PrefetchSize: 16})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := string(it.Item().Key()[len(p):])
			var st store.Stats
			if err := it.Item().Value(func(v []byte) error {
				return decode(v, "stats "+k+" of "+account, &st)
			}); err != nil {
				return err
			}
			out[k] = st
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// StatsFor returns the account's stats for key; zero store.Stats if never played.
func (s *Store) StatsFor(ctx context.Context, account, key string) (store.Stats, error) {
	if err := store.CheckID(account); err != nil {
		return store.Stats{}, err
	}
	if err := store.CheckKey(key); err != nil {
		return store.Stats{}, err
	}
	var st store.Stats
	err := s.view(ctx, func(txn *badger.Txn) error {
		return getJSONOrZero(txn, dbKey(kStats, account, key), "stats "+key+" of "+account, &st)
	})
	return st, err
}

// Streak returns the account's daily streak for key as of today's UTC day:
// Current is 0 when the last daily win is older than yesterday.
func (s *Store) Streak(ctx context.Context, account, key string, today time.Time) (store.Streak, error) {
	if err := store.CheckID(account); err != nil {
		return store.Streak{}, err
	}
	if err := store.CheckKey(key); err != nil {
		return store.Streak{}, err
	}
	var st store.Streak
	err := s.view(ctx, func(txn *badger.Txn) error {
		return getJSONOrZero(txn, dbKey(kStreak, account, key), "streak "+key+" of "+account, &st)
	})
	if err != nil {
		return store.Streak{}, err
	}
	if st.LastDay != store.Day(today) && st.LastDay != store.Day(today.UTC().AddDate(0, 0, -1)) {
		st.Current = 0
	}
	return st, nil
}

// Board returns up to n results of the board for key, best first: the
// all-time board when day is "", else the board of that day's daily deal.
// One entry per account (its best); Name is the account's current name.
func (s *Store) Board(ctx context.Context, key, day string, n int) ([]store.Result, error) {
	if err := store.CheckKey(key); err != nil {
		return nil, err
	}
	if day != "" {
		if err := store.CheckDay(day); err != nil {
			return nil, err
		}
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.Result{}
	if n == 0 {
		return out, nil
	}
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		out, err = scanResults(txn, prefix(kBoard, key, day), false, n, func(k []byte) string {
			return fmt.Sprintf("board %s %q entry %x", key, day, k)
		})
		if err != nil {
			return err
		}
		for i := range out {
			var a store.Account
			if getJSON(txn, dbKey(kAccount, out[i].Account), "", &a) == nil && a.Name != "" {
				out[i].Name = a.Name
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Rank returns the account's place on a board (1 is first) and its entry,
// or store.ErrNotFound if it has none. It walks the board up to the entry.
func (s *Store) Rank(ctx context.Context, account, key, day string) (int, store.Result, error) {
	if err := store.CheckID(account); err != nil {
		return 0, store.Result{}, err
	}
	if err := store.CheckKey(key); err != nil {
		return 0, store.Result{}, err
	}
	if day != "" {
		if err := store.CheckDay(day); err != nil {
			return 0, store.Result{}, err
		}
	}
	var (
		place int
		r     store.Result
	)
	err := s.view(ctx, func(txn *badger.Txn) error {
		what := "board entry " + key + " " + day + " of " + account
		rank, err := getBytes(txn, dbKey(kEntry, key, day, account), what)
		if err != nil {
			return err
		}
		bk := boardKey(key, day, rank, account)
		if err := getJSON(txn, bk, what, &r); err != nil {
			return err
		}
		p := prefix(kBoard, key, day)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			place++
			if bytes.Equal(it.Item().Key(), bk) {
				return nil
			}
		}
		return fmt.Errorf("%w: %s not on its board", store.ErrCorrupt, what)
	})
	if err != nil {
		return 0, store.Result{}, err
	}
	return place, r, nil
}

// Results returns up to n of the account's results, newest first.
func (s *Store) Results(ctx context.Context, account string, n int) ([]store.Result, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.Result{}
	if n == 0 {
		return out, nil
	}
	err := s.view(ctx, func(txn *badger.Txn) error {
		var err error
		out, err = scanResults(txn, prefix(kResult, account), true, n, func(k []byte) string {
			return fmt.Sprintf("result %x of %s", k, account)
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanResults reads up to n results under prefix p in key order, or
// backwards from the end when reverse is set. what names an entry (by its
// key after p) in the message a damaged one gets.
func scanResults(txn *badger.Txn, p []byte, reverse bool, n int, what func(key []byte) string) ([]store.Result, error) {
	out := []store.Result{}
	it := txn.NewIterator(badger.IteratorOptions{Prefix: p, Reverse: reverse, PrefetchValues: true, PrefetchSize: min(n, 100)})
	defer it.Close()
	if reverse {
		// Reverse iteration with a prefix starts from just past every key
		// with that prefix.
		it.Seek(append(p[:len(p)-1:len(p)-1], p[len(p)-1]+1))
	} else {
		it.Rewind()
	}
	for ; it.Valid() && len(out) < n; it.Next() {
		var r store.Result
		if err := it.Item().Value(func(v []byte) error {
			return decode(v, what(it.Item().Key()[len(p):]), &r)
		}); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
