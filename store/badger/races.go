package badger

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

func raceKey(account string, r store.RaceRecord) []byte {
	var when [8]byte
	binary.BigEndian.PutUint64(when[:], timeKey(r.Finished))
	k := prefix(kRace, account)
	k = append(k, when[:]...)
	return append(k, r.Code...)
}

// RecordRace keeps a finished race for each human racer in it, in one
// transaction. Recording the same race again is a no-op.
func (s *Store) RecordRace(ctx context.Context, r store.RaceRecord) error {
	if err := store.CheckSpec(r.Spec); err != nil {
		return err
	}
	if err := store.CheckKey(r.Key); err != nil {
		return err
	}
	if r.Code == "" || len(r.Code) > 16 || len(r.Racers) == 0 || len(r.Racers) > store.MaxRaceRacers || r.Finished.IsZero() {
		return fmt.Errorf("%w: race record %q", store.ErrInvalid, r.Code)
	}
	r.Finished, r.Started = r.Finished.UTC(), r.Started.UTC()
	for _, x := range r.Racers {
		if len(x.Name) > 64 || (!x.Ghost && store.CheckID(x.Account) != nil) {
			return fmt.Errorf("%w: a racer of race %s", store.ErrInvalid, r.Code)
		}
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		for _, x := range r.Racers {
			if x.Ghost {
				continue
			}
			if err := setJSON(txn, raceKey(x.Account, r), "race "+r.Code, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// Races returns up to n of the account's races, newest first.
func (s *Store) Races(ctx context.Context, account string, n int) ([]store.RaceRecord, error) {
	if err := store.CheckID(account); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.RaceRecord{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		p := prefix(kRace, account)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: p, Reverse: true})
		defer it.Close()
		// Reverse iteration with a prefix starts from just past every key
		// with that prefix.
		for it.Seek(append(p[:len(p)-1:len(p)-1], p[len(p)-1]+1)); it.Valid() && len(out) < n; it.Next() {
			var r store.RaceRecord
			if err := it.Item().Value(func(v []byte) error {
				return decode(v, fmt.Sprintf("race %x of %s", it.Item().Key()[len(p):], account), &r)
			}); err != nil {
				return err
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
