package store

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// RaceRecord is one finished race, as every racer in it keeps it.
type RaceRecord struct {
	Code     string
	Spec     string
	Key      string
	Ranked   bool // on the day's deal
	Started  time.Time
	Finished time.Time
	Racers   []RaceRacer // in finishing order, placed first
}

// RaceRacer is one racer's line of a race.
type RaceRacer struct {
	Account string `json:",omitempty"` // "" for a ghost
	Name    string
	Ghost   bool `json:",omitempty"`
	Place   int  // 0: no place (gave up, dropped, or not finished)
	Status  string
	Time    time.Duration
	Moves   int
	Home    int
	Total   int
}

// maxRacers bounds a stored race's racers.
const maxRacers = 16

func raceKey(account string, finished time.Time, code string) []byte {
	var when [8]byte
	binary.BigEndian.PutUint64(when[:], timeKey(finished))
	k := prefix(kRace, account)
	k = append(k, when[:]...)
	return append(k, code...)
}

// RecordRace keeps a finished race for each human racer in it, in one
// transaction. Recording the same race again is a no-op.
func (s *Store) RecordRace(r RaceRecord) error {
	if err := checkSpec(r.Spec); err != nil {
		return err
	}
	if err := checkKey(r.Key); err != nil {
		return err
	}
	if r.Code == "" || len(r.Code) > 16 || len(r.Racers) == 0 || len(r.Racers) > maxRacers || r.Finished.IsZero() {
		return fmt.Errorf("%w: race record %q", ErrInvalid, r.Code)
	}
	r.Finished, r.Started = r.Finished.UTC(), r.Started.UTC()
	for _, x := range r.Racers {
		if len(x.Name) > 64 || (!x.Ghost && checkID(x.Account) != nil) {
			return fmt.Errorf("%w: a racer of race %s", ErrInvalid, r.Code)
		}
	}
	return s.update(func(txn *badger.Txn) error {
		for _, x := range r.Racers {
			if x.Ghost {
				continue
			}
			if err := setJSON(txn, raceKey(x.Account, r.Finished, r.Code), "race "+r.Code, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// Races returns up to n of the account's races, newest first.
func (s *Store) Races(account string, n int) ([]RaceRecord, error) {
	if err := checkID(account); err != nil {
		return nil, err
	}
	n = min(max(n, 0), maxBoard)
	out := []RaceRecord{}
	err := s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix(kRace, account), Reverse: true})
		defer it.Close()
		p := prefix(kRace, account)
		it.Seek(append(p[:len(p)-1:len(p)-1], p[len(p)-1]+1)) // just past the prefix, as scanResults
		for ; it.Valid() && len(out) < n; it.Next() {
			var r RaceRecord
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
