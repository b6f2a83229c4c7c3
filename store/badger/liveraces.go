package badger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dgraph-io/badger/v4"

	"sshuffle/store"
)

// Keys of the live races:
//
//	L code            -> liveHead JSON (the race without its racers)
//	H code 0 account  -> store.LiveRacer JSON
//	Z code            -> endedRace JSON (a race lost at a start, or a room that ended)
//
// Each racer has a key of their own so that its version (Badger's commit
// timestamp, which only grows, restarts included) says when that racer's
// game last changed: LoseRaces compares it with their save's.
const (
	kLiveRace  = 'L'
	kLiveRacer = 'H'
	kEndedRace = 'Z'
)

type liveHead struct {
	Code    string    `json:"code"`
	Spec    string    `json:"spec"`
	Key     string    `json:"key"`
	Started time.Time `json:"started"`
}

type endedRace struct {
	Until time.Time `json:"until"`
}

func checkRaceCode(code string) error { return store.CheckField("race code", code, 16) }

func checkLiveRace(r store.LiveRace) error {
	if err := checkRaceCode(r.Code); err != nil {
		return err
	}
	if err := store.CheckSpec(r.Spec); err != nil {
		return err
	}
	if err := store.CheckKey(r.Key); err != nil {
		return err
	}
	if len(r.Racers) > store.MaxRaceRacers {
		return fmt.Errorf("%w: live race %s has %d racers", store.ErrInvalid, r.Code, len(r.Racers))
	}
	size := 0
	seen := map[string]bool{}
	for _, x := range r.Racers {
		if err := store.CheckID(x.Account); err != nil {
			return err
		}
		if seen[x.Account] || x.Moves < 0 {
			return fmt.Errorf("%w: a racer of live race %s", store.ErrInvalid, r.Code)
		}
		seen[x.Account] = true
		size += len(x.Save)
	}
	if size > store.MaxLiveRace {
		return fmt.Errorf("%w: live race %s of %d bytes (max %d)", store.ErrInvalid, r.Code, size, store.MaxLiveRace)
	}
	return nil
}

// PutLiveRace keeps a race in play, in one transaction. A racer's line
// that is the same as the one kept is not written again, so that its
// version stays the time it last changed.
func (s *Store) PutLiveRace(ctx context.Context, r store.LiveRace) error {
	p, err := prepareLiveRace(r)
	if err != nil {
		return err
	}
	return s.update(ctx, func(txn *badger.Txn) error { return putLiveRace(txn, p) })
}

// KeepLiveRaces puts races and forgets the races of gone in as few
// transactions as Badger takes (one, unless it is too big), each synced
// once: a server with hundreds of races writes them all every few
// seconds, and a synced write a race held the server's one core in the
// kernel a few hundred microseconds each, hundreds of times in a row. A
// race that fails its checks is left out and its error returned, joined,
// after the others are written.
func (s *Store) KeepLiveRaces(ctx context.Context, races []store.LiveRace, gone []string) error {
	var bad []error
	ps := make([]preparedRace, 0, len(races))
	for _, r := range races {
		p, err := prepareLiveRace(r)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		ps = append(ps, p)
	}
	codes := make([]string, 0, len(gone))
	for _, c := range gone {
		if err := checkRaceCode(c); err != nil {
			bad = append(bad, err)
			continue
		}
		codes = append(codes, c)
	}
	if err := s.keepLive(ctx, ps, codes); err != nil {
		return errors.Join(append(bad, err)...)
	}
	return errors.Join(bad...)
}

// keepLive writes ps and forgets gone in one transaction, or in halves
// when that is more than Badger takes at once.
func (s *Store) keepLive(ctx context.Context, ps []preparedRace, gone []string) error {
	if len(ps) == 0 && len(gone) == 0 {
		return nil
	}
	err := s.update(ctx, func(txn *badger.Txn) error {
		for _, c := range gone {
			if err := deleteLiveRace(txn, c); err != nil {
				return err
			}
		}
		for _, p := range ps {
			if err := putLiveRace(txn, p); err != nil {
				return err
			}
		}
		return nil
	})
	if !errors.Is(err, badger.ErrTxnTooBig) || len(ps)+len(gone) < 2 {
		return err
	}
	if len(gone) > 0 {
		if err := s.keepLive(ctx, nil, gone); err != nil {
			return err
		}
	}
	if len(ps) < 2 {
		return s.keepLive(ctx, ps, nil)
	}
	if err := s.keepLive(ctx, ps[:len(ps)/2], nil); err != nil {
		return err
	}
	return s.keepLive(ctx, ps[len(ps)/2:], nil)
}

// preparedRace is a race checked and its lines encoded, ready to write.
type preparedRace struct {
	code  string
	head  liveHead
	lines map[string][]byte
}

func prepareLiveRace(r store.LiveRace) (preparedRace, error) {
	if err := checkLiveRace(r); err != nil {
		return preparedRace{}, err
	}
	p := preparedRace{
		code:  r.Code,
		head:  liveHead{Code: r.Code, Spec: r.Spec, Key: r.Key, Started: r.Started.UTC()},
		lines: make(map[string][]byte, len(r.Racers)),
	}
	for _, x := range r.Racers {
		b, err := json.Marshal(x)
		if err != nil {
			return preparedRace{}, fmt.Errorf("store: encode a racer of live race %s: %w", r.Code, err)
		}
		p.lines[x.Account] = b
	}
	return p, nil
}

// putLiveRace writes p's head and the lines that changed, and deletes
// the lines of racers no longer listed.
func putLiveRace(txn *badger.Txn, p preparedRace) error {
	if err := setJSON(txn, dbKey(kLiveRace, p.code), "live race "+p.code, p.head); err != nil {
		return err
	}
	pre := prefix(kLiveRacer, p.code)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: pre})
	kept := map[string][]byte{}
	var gone [][]byte
	for it.Rewind(); it.Valid(); it.Next() {
		acc := string(it.Item().Key()[len(pre):])
		if _, ok := p.lines[acc]; !ok {
			gone = append(gone, it.Item().KeyCopy(nil))
			continue
		}
		v, err := it.Item().ValueCopy(nil)
		if err != nil {
			it.Close()
			return err
		}
		kept[acc] = v
	}
	it.Close()
	for _, k := range gone {
		if err := txn.Delete(k); err != nil {
			return err
		}
	}
	for acc, b := range p.lines {
		if old, ok := kept[acc]; ok && bytes.Equal(old, b) {
			continue
		}
		if err := txn.Set(dbKey(kLiveRacer, p.code, acc), b); err != nil {
			return err
		}
	}
	return nil
}

// DeleteLiveRace forgets a race and its racers' lines.
func (s *Store) DeleteLiveRace(ctx context.Context, code string) error {
	if err := checkRaceCode(code); err != nil {
		return err
	}
	return s.update(ctx, func(txn *badger.Txn) error { return deleteLiveRace(txn, code) })
}

func deleteLiveRace(txn *badger.Txn, code string) error {
	keys := [][]byte{dbKey(kLiveRace, code)}
	p := prefix(kLiveRacer, code)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: p, PrefetchValues: false})
	for it.Rewind(); it.Valid(); it.Next() {
		keys = append(keys, it.Item().KeyCopy(nil))
	}
	it.Close()
	for _, k := range keys {
		if err := txn.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// liveCodes lists the codes of the races kept, in order.
func liveCodes(txn *badger.Txn) []string {
	var codes []string
	it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kLiveRace}, PrefetchValues: false})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		codes = append(codes, string(it.Item().Key()[1:]))
	}
	return codes
}

// readLiveRace reads one race and its racers, with each racer's version.
func readLiveRace(txn *badger.Txn, code string) (store.LiveRace, []uint64, error) {
	var head liveHead
	if err := getJSON(txn, dbKey(kLiveRace, code), "live race "+code, &head); err != nil {
		return store.LiveRace{}, nil, err
	}
	r := store.LiveRace{Code: code, Spec: head.Spec, Key: head.Key, Started: head.Started}
	var versions []uint64
	p := prefix(kLiveRacer, code)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		var x store.LiveRacer
		acc := string(it.Item().Key()[len(p):])
		if err := it.Item().Value(func(v []byte) error {
			return decode(v, "racer "+acc+" of live race "+code, &x)
		}); err != nil {
			return store.LiveRace{}, nil, err
		}
		if x.Account != acc {
			return store.LiveRace{}, nil, fmt.Errorf("%w: racer %s of live race %s names %q", store.ErrCorrupt, acc, code, x.Account)
		}
		r.Racers = append(r.Racers, x)
		versions = append(versions, it.Item().Version())
	}
	if store.CheckKey(r.Key) != nil || store.CheckSpec(r.Spec) != nil {
		return store.LiveRace{}, nil, fmt.Errorf("%w: live race %s has no game", store.ErrCorrupt, code)
	}
	return r, versions, nil
}

// LiveRaces returns the races kept, in code order; one that cannot be
// read is logged and left out.
func (s *Store) LiveRaces(ctx context.Context) ([]store.LiveRace, error) {
	out := []store.LiveRace{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		for _, code := range liveCodes(txn) {
			r, _, err := readLiveRace(txn, code)
			if err != nil {
				if errors.Is(err, store.ErrCorrupt) {
					s.log.Error("store: a live race does not read; left out", "code", code, "error", err.Error())
					continue
				}
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

// LoseRaces settles every race kept as lost, one transaction each (see
// store.LiveRaces).
func (s *Store) LoseRaces(ctx context.Context, now, until time.Time) ([]store.LostRace, error) {
	var codes []string
	if err := s.view(ctx, func(txn *badger.Txn) error {
		codes = liveCodes(txn)
		return nil
	}); err != nil {
		return nil, err
	}
	out := []store.LostRace{}
	for _, code := range codes {
		var lost store.LostRace
		var bad error
		err := s.update(ctx, func(txn *badger.Txn) error {
			lost, bad = store.LostRace{}, nil
			r, versions, err := readLiveRace(txn, code)
			switch {
			case errors.Is(err, store.ErrCorrupt):
				bad = err
			case err != nil:
				return err
			default:
				lost.LiveRace = r
				for i, x := range r.Racers {
					if x.Done || x.Moves == 0 || len(x.Save) == 0 {
						continue
					}
					keep, err := olderSave(txn, x.Account, r.Key, versions[i])
					if err != nil {
						return err
					}
					if !keep {
						continue
					}
					if err := txn.Set(dbKey(kSave, x.Account, r.Key), slices.Clone(x.Save)); err != nil {
						return err
					}
					lost.Kept = append(lost.Kept, x.Account)
				}
			}
			if err := setJSON(txn, dbKey(kEndedRace, code), "ended race "+code, endedRace{Until: until.UTC()}); err != nil {
				return err
			}
			return deleteLiveRace(txn, code)
		})
		if err != nil {
			return out, err
		}
		if bad != nil {
			s.log.Error("store: a lost race does not read; its code is ended, its games are not kept", "code", code,
				"error", bad.Error())
			continue
		}
		out = append(out, lost)
	}
	err := s.update(ctx, func(txn *badger.Txn) error {
		var past [][]byte
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kEndedRace}})
		for it.Rewind(); it.Valid(); it.Next() {
			var e endedRace
			if err := it.Item().Value(func(v []byte) error { return json.Unmarshal(v, &e) }); err != nil || !e.Until.After(now) {
				past = append(past, it.Item().KeyCopy(nil))
			}
		}
		it.Close()
		for _, k := range past {
			if err := txn.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// olderSave says whether the account's save of key is missing or was
// written before version, so that a racer's game may replace it.
func olderSave(txn *badger.Txn, account, key string, version uint64) (bool, error) {
	item, err := txn.Get(dbKey(kSave, account, key))
	switch {
	case errors.Is(err, badger.ErrKeyNotFound):
		return true, nil
	case err != nil:
		return false, err
	}
	return item.Version() < version, nil
}

// EndCode keeps a room's code as ended until until (see store.LiveRaces).
func (s *Store) EndCode(ctx context.Context, code string, until time.Time) error {
	if err := checkRaceCode(code); err != nil {
		return err
	}
	return s.update(ctx, func(txn *badger.Txn) error {
		var e endedRace
		item, err := txn.Get(dbKey(kEndedRace, code))
		switch {
		case errors.Is(err, badger.ErrKeyNotFound):
		case err != nil:
			return err
		default:
			// One that does not read is replaced: it says nothing else.
			_ = item.Value(func(v []byte) error { return json.Unmarshal(v, &e) })
		}
		if e.Until.After(until) {
			return nil
		}
		return setJSON(txn, dbKey(kEndedRace, code), "ended code "+code, endedRace{Until: until.UTC()})
	})
}

// EndedRaces returns the codes kept as ended at now.
func (s *Store) EndedRaces(ctx context.Context, now time.Time) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	err := s.view(ctx, func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kEndedRace}})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			code := string(it.Item().Key()[1:])
			var e endedRace
			if err := it.Item().Value(func(v []byte) error { return decode(v, "ended race "+code, &e) }); err != nil {
				s.log.Error("store: an ended race does not read; left out", "code", code, "error", err.Error())
				continue
			}
			if e.Until.After(now) {
				out[code] = e.Until
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
