package badger

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dgraph-io/badger/v4"
	"github.com/klauspost/compress/s2"

	"sshuffle/store"
)

// Keys of the table games:
//
//	T id 0 when(8) code 0 gameNo  -> store.TableGame JSON (one copy per person)
//	U id 0 code 0 gameNo          -> "" (that game is on the account's record)
//	W id 0 game                   -> store.TableStats JSON
//	Q code                        -> a snapshot's bytes
const (
	kTableGame = 'T'
	kTableSeen = 'U'
	kTableStat = 'W'
	kTableSnap = 'Q'
)

func tableGameKey(account string, g store.TableGame) []byte {
	var when [8]byte
	binary.BigEndian.PutUint64(when[:], timeKey(g.Finished))
	k := prefix(kTableGame, account)
	k = append(k, when[:]...)
	return append(k, g.Code+"\x00"+strconv.Itoa(g.GameNo)+"\x00"+g.Spec...)
}

// RecordTableGame keeps a finished table game for each person seated at
// it and counts it in their stats, in one transaction. The same game again
// is a no-op.
func (s *Store) RecordTableGame(ctx context.Context, g store.TableGame) error {
	if err := store.CheckTableGame(g); err != nil {
		return err
	}
	g.Finished, g.Started = g.Finished.UTC(), g.Started.UTC()
	people := 0
	for _, x := range g.Seats {
		if x.Account != "" {
			people++
		}
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		fresh := map[string]bool{}
		for _, x := range g.Seats {
			if x.Account == "" {
				continue
			}
			// The deal (the spec's seed) tells a rematch's games from the
			// first match's, whose numbers they repeat.
			seen := dbKey(kTableSeen, x.Account, g.Code, g.Spec, strconv.Itoa(g.GameNo))
			if _, err := txn.Get(seen); err == nil {
				continue
			} else if !errors.Is(err, badger.ErrKeyNotFound) {
				return err
			}
			fresh[x.Account] = true
		}
		g := g // a retried transaction starts again from the caller's game
		if g.Rated && len(fresh) > 0 {
			if err := rateTableGame(txn, &g, fresh); err != nil {
				return err
			}
		}
		for i, x := range g.Seats {
			if !fresh[x.Account] {
				continue
			}
			fresh[x.Account] = false // an account in two seats counts once, as its first
			seen := dbKey(kTableSeen, x.Account, g.Code, g.Spec, strconv.Itoa(g.GameNo))
			if err := txn.Set(seen, nil); err != nil {
				return err
			}
			if err := setJSON(txn, tableGameKey(x.Account, g), "table game "+g.Code, g); err != nil {
				return err
			}
			sk := dbKey(kTableStat, x.Account, g.Game)
			var st store.TableStats
			if err := getJSONOrZero(txn, sk, "table stats", &st); err != nil {
				return err
			}
			st.Game = g.Game
			st.Played++
			if g.Winner == i {
				st.Won++
			}
			if g.MatchEnd {
				st.Matches++
				if g.MatchWinner == i {
					st.MatchesWon++
				}
			}
			if people > 1 {
				st.AgainstPeople++
			}
			if err := setJSON(txn, sk, "table stats", st); err != nil {
				return err
			}
		}
		return nil
	})
}

// TableGames returns up to n of the account's table games, newest first.
func (s *Store) TableGames(ctx context.Context, account string, n int) ([]store.TableGame, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.TableGame{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := prefix(kTableGame, account)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p, Reverse: true})
		defer it.Close()
		for it.Seek(append(p[:len(p)-1:len(p)-1], p[len(p)-1]+1)); it.Valid() && len(out) < n; it.Next() {
			var g store.TableGame
			if err := it.Item().Value(func(v []byte) error {
				return decode(v, "a table game of "+account, &g)
			}); err != nil {
				return err
			}
			out = append(out, g)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// TableStats returns the account's stats per table game, by game name.
func (s *Store) TableStats(ctx context.Context, account string) ([]store.TableStats, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	out := []store.TableStats{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := prefix(kTableStat, account)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			var st store.TableStats
			if err := it.Item().Value(func(v []byte) error {
				return decode(v, "table stats of "+account, &st)
			}); err != nil {
				return err
			}
			out = append(out, st)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b store.TableStats) int { return strings.Compare(a.Game, b.Game) })
	return out, nil
}

// PutTable keeps a table's snapshot under its code.
func (s *Store) PutTable(ctx context.Context, code string, snapshot []byte) error {
	if err := store.CheckTableCode(code); err != nil {
		return err
	}
	if len(snapshot) == 0 || len(snapshot) > store.MaxTableRecord {
		return fmt.Errorf("%w: snapshot of table %s", store.ErrInvalid, code)
	}
	// Written with the other tables' snapshots of the moment, in one
	// synced transaction (putSnapshot says why).
	return s.putSnapshot(ctx, dbKey(kTableSnap, code), packSnapshot(snapshot))
}

// snapPacked starts a snapshot stored compressed; a snapshot stored as it
// came is JSON and starts with '{'.
const snapPacked = 1

// packSnapshot compresses a snapshot for the store (S2, Snappy's faster
// kin). A live table writes its whole snapshot after every action, and
// the records of the moves are most of it: a server with hundreds of
// tables wrote about a megabyte a second, so a memtable to flush every
// eight seconds and a compaction every forty, each a burst of work on the
// one core. Compressed, the JSON is a third to a quarter of its size, for
// a few microseconds of CPU a snapshot. Badger's checksums cover the
// stored bytes (its own block compression is off: smallProfile).
func packSnapshot(snapshot []byte) []byte {
	out := make([]byte, 1+s2.MaxEncodedLen(len(snapshot)))
	out[0] = snapPacked
	return out[:1+len(s2.Encode(out[1:], snapshot))]
}

// unpackSnapshot is a stored snapshot as it was put. Bytes that do not
// decompress are returned as they are: they do not read as a snapshot
// either, and the caller drops them with the reason logged.
func unpackSnapshot(v []byte) []byte {
	if len(v) == 0 || v[0] != snapPacked {
		return v
	}
	out, err := s2.Decode(nil, v[1:])
	if err != nil {
		return v
	}
	return out
}

// DeleteTable forgets a table's snapshot.
func (s *Store) DeleteTable(ctx context.Context, code string) error {
	if err := store.CheckTableCode(code); err != nil {
		return err
	}
	// In the same rounds as the snapshots, so that a deletion is never
	// overtaken by a snapshot of the table handed over before it.
	return s.putSnapshot(ctx, dbKey(kTableSnap, code), nil)
}

// SavedTables returns every snapshot by code.
func (s *Store) SavedTables(ctx context.Context) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := []byte{kTableSnap}
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			out[string(it.Item().Key()[1:])] = unpackSnapshot(v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
