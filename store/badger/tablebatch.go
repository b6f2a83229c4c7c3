package badger

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// snapGather is how long the first table snapshot of a round waits for
// others before the round is written. Every live table writes a snapshot
// after each action, and each write is synced to disk: written one by one,
// the syncs of a few hundred tables were the largest single cost of a
// busy server. A round writes every snapshot that came in meanwhile (a
// table's newest only) in one synced transaction, so snapshots cost a few
// syncs a second however many tables play, and a snapshot reaches the
// disk at most this much later than it would alone. Nothing is written
// unsynced: a crash loses what it lost before, the snapshots not yet
// written, plus at most this long of each table's moves.
var snapGather = 50 * time.Millisecond

// snapRound is one round of table snapshots: the newest of each table
// (nil: the table's snapshot is to be deleted), written together.
type snapRound struct {
	writes  map[string][]byte
	started bool          // being written: takes no more (under snapBatch.mu)
	prev    *snapRound    // written first, so that a later round never loses to an earlier
	done    chan struct{} // closed once written (or failed: err)
	err     error
}

// snapBatch gathers the table snapshots of every table into rounds.
type snapBatch struct {
	gather time.Duration // 0: each snapshot is written at once, alone
	mu     sync.Mutex
	open   *snapRound // taking snapshots; nil until the next comes
	last   *snapRound // the newest round, open or being written
	taken  int        // snapshots handed to the open round
}

// putSnapshot has the table's snapshot (nil: its deletion) written in the
// next round and waits until the round is written; a newer snapshot of
// the same table in the same round replaces it, and the round's success
// is this one's.
func (s *Store) putSnapshot(ctx context.Context, key, snapshot []byte) error {
	b := &s.snaps
	if b.gather == 0 {
		return s.update(ctx, func(txn *badger.Txn) error {
			if snapshot == nil {
				return txn.Delete(key)
			}
			return txn.Set(key, snapshot)
		})
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	r := b.open
	if r == nil {
		r = &snapRound{writes: map[string][]byte{}, prev: b.last, done: make(chan struct{})}
		b.open, b.last, b.taken = r, r, 0
		time.AfterFunc(b.gather, func() { s.writeRound(r) })
	}
	r.writes[string(key)] = snapshot
	b.taken++
	b.mu.Unlock()
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeRound closes round r to newcomers and writes it after the round
// before it, as few transactions as Badger's size limit allows.
func (s *Store) writeRound(r *snapRound) {
	s.snaps.mu.Lock()
	if r.started {
		s.snaps.mu.Unlock()
		return
	}
	r.started = true
	if s.snaps.open == r {
		s.snaps.open = nil
	}
	s.snaps.mu.Unlock()
	if r.prev != nil {
		<-r.prev.done
		r.prev = nil // the chain ends here, for the collector
	}
	defer close(r.done)
	keys := make([]string, 0, len(r.writes))
	for k := range r.writes {
		keys = append(keys, k)
	}
	for len(keys) > 0 {
		n := 0
		r.err = s.update(context.Background(), func(txn *badger.Txn) error {
			n = 0
			for _, k := range keys {
				var err error
				if v := r.writes[k]; v != nil {
					err = txn.Set([]byte(k), v)
				} else {
					err = txn.Delete([]byte(k))
				}
				if errors.Is(err, badger.ErrTxnTooBig) && n > 0 {
					return nil // the rest in the next transaction
				}
				if err != nil {
					return err
				}
				n++
			}
			return nil
		})
		if r.err != nil {
			return
		}
		keys = keys[n:]
	}
}

// flushSnapshots writes the open round now, if any, and waits for every
// round before it: for Close, so that no snapshot handed over is lost to
// the store closing under it.
func (s *Store) flushSnapshots() {
	s.snaps.mu.Lock()
	open, last := s.snaps.open, s.snaps.last
	s.snaps.mu.Unlock()
	if open != nil {
		s.writeRound(open)
	}
	if last != nil {
		<-last.done
	}
}
