package nats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"sshuffle/store"
)

// boardIndex is this handle's copy of every board, ordered, fed by an
// ordered consumer on the board entries: a board is read from memory, and
// a place on it is a binary search.
type boardIndex struct {
	s    *Store
	cc   jetstream.ConsumeContext
	mu   sync.Mutex
	by   map[string]*board // by boardName
	seq  uint64            // the stream sequence of the last entry applied
	more chan struct{}     // closed and replaced each time seq moves
	// restarting is held by the one waiter that starts the watch again.
	restarting sync.Mutex
	closed     bool
}

type board struct {
	byAccount map[string]*boardEntry
	order     []*boardEntry // best first
}

type boardEntry struct {
	account string
	rank    []byte
	val     []byte // the result's JSON
}

func (e *boardEntry) compare(o *boardEntry) int {
	if c := bytes.Compare(e.rank, o.rank); c != 0 {
		return c
	}
	return strings.Compare(e.account, o.account)
}

// startBoards starts the watch and returns once the index holds every
// entry written before the call.
func startBoards(ctx context.Context, s *Store) (*boardIndex, error) {
	x := &boardIndex{s: s, by: map[string]*board{}, more: make(chan struct{})}
	var err error
	x.cc, err = x.watch(ctx, 0)
	if err != nil {
		return nil, fmt.Errorf("store: watching the boards: %w", err)
	}
	last, err := s.records.lastSeq(ctx, s.records.pre+"b.>")
	if err == nil {
		err = x.wait(ctx, last)
	}
	if err != nil {
		x.close()
		return nil, fmt.Errorf("store: loading the boards: %w", err)
	}
	return x, nil
}

// watch consumes the board entries: the last of each from the start
// (after 0), or every one after the stream sequence after.
func (x *boardIndex) watch(ctx context.Context, after uint64) (jetstream.ConsumeContext, error) {
	cfg := jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{x.s.records.pre + "b.>"},
		DeliverPolicy:  jetstream.DeliverLastPerSubjectPolicy,
	}
	if after > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, after+1
	}
	cons, err := x.s.js.OrderedConsumer(ctx, x.s.records.stream, cfg)
	if err != nil {
		return nil, err
	}
	// A watch on a server that dies, or on a stream whose leader moves,
	// goes silent; the ordered consumer starts again after two missed
	// heartbeats. At the default 5 s that is longer than a write waits
	// for the index, so a write right after a leader's death would fail
	// although it was stored.
	return cons.Consume(x.apply, jetstream.PullHeartbeat(time.Second), jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		if !errors.Is(err, jetstream.ErrConsumerDeleted) && !errors.Is(err, jetstream.ErrNoHeartbeat) {
			x.s.log.Warn("store: board watch", "error", err.Error())
		}
	}))
}

func (x *boardIndex) close() {
	x.restarting.Lock()
	defer x.restarting.Unlock()
	x.closed = true
	x.mu.Lock()
	cc := x.cc
	x.mu.Unlock()
	cc.Stop()
}

// restart replaces a watch that has gone silent while a write waits for
// it. The ordered consumer restarts itself too, but after a leader's
// election its attempts back off (1, 2, 4 s... each up to 10 s), which can
// outlast a write's whole wait on a busy machine; this one tries again
// from the last entry applied each time a waiter finds no progress.
func (x *boardIndex) restart(ctx context.Context) {
	if !x.restarting.TryLock() {
		return
	}
	defer x.restarting.Unlock()
	if x.closed {
		return
	}
	x.mu.Lock()
	after, old := x.seq, x.cc
	x.mu.Unlock()
	cc, err := x.watch(ctx, after)
	if err != nil {
		return // the next stall tries again
	}
	old.Stop()
	x.mu.Lock()
	x.cc = cc
	x.mu.Unlock()
}

func (x *boardIndex) apply(m jetstream.Msg) {
	md, err := m.Metadata()
	if err != nil {
		return
	}
	parts := strings.Split(strings.TrimPrefix(m.Subject(), x.s.records.pre), ".")
	x.mu.Lock()
	defer x.mu.Unlock()
	if md.Sequence.Stream <= x.seq {
		// A watch started again, or the one it replaced, delivering what
		// the index holds: applied again, an older entry would undo a
		// newer one.
		return
	}
	x.seq = md.Sequence.Stream
	close(x.more)
	x.more = make(chan struct{})
	if len(parts) != 4 {
		return
	}
	account, err := untok(parts[3])
	name := parts[1] + "." + parts[2]
	if err != nil {
		x.s.log.Error("store: a board entry's key does not read; left out", "key", m.Subject())
		return
	}
	b := x.by[name]
	if b == nil {
		b = &board{byAccount: map[string]*boardEntry{}}
		x.by[name] = b
	}
	if old := b.byAccount[account]; old != nil {
		i, _ := slices.BinarySearchFunc(b.order, old, (*boardEntry).compare)
		if i < len(b.order) && b.order[i] == old {
			b.order = slices.Delete(b.order, i, i+1)
		}
		delete(b.byAccount, account)
	}
	data := m.Data()
	if deleted(m.Headers()) {
		return
	}
	if len(data) < rankLen {
		x.s.log.Error("store: a board entry does not read; left out", "key", m.Subject(), "bytes", len(data))
		return
	}
	e := &boardEntry{account: account, rank: data[:rankLen:rankLen], val: data[rankLen:]}
	i, _ := slices.BinarySearchFunc(b.order, e, (*boardEntry).compare)
	b.order = slices.Insert(b.order, i, e)
	b.byAccount[account] = e
}

// watchStallAfter is how long a waiter lets the watch make no progress before
// it starts the watch again.
const watchStallAfter = 1500 * time.Millisecond

// wait returns once the index has applied the entry at stream sequence
// seq (or any later one).
func (x *boardIndex) wait(ctx context.Context, seq uint64) error {
	for {
		x.mu.Lock()
		at, more := x.seq, x.more
		x.mu.Unlock()
		if at >= seq {
			return nil
		}
		select {
		case <-more:
		case <-ctx.Done():
			return fmt.Errorf("store: the board index did not catch up with the write at %d (it is at %d): %w", seq, at, ctx.Err())
		case <-time.After(watchStallAfter):
			x.restart(ctx)
		}
	}
}

// lastSeq is the sequence of the last message matching pattern (0: none),
// from the stream's leader.
func (b *bucket) lastSeq(ctx context.Context, subject string) (uint64, error) {
	m, err := b.lastMsg(ctx, subject)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return 0, nil
	case err != nil:
		return 0, b.s.failed("read the last of "+subject, err)
	}
	return m.Sequence, nil
}

// catchUp waits until the index holds every entry of the board written
// before the call, on any node: the leader says which is the last.
func (s *Store) catchUp(ctx context.Context, k, day string) error {
	last, err := s.records.lastSeq(ctx, s.records.pre+key("b", boardName(k, day), "*"))
	if err != nil {
		return err
	}
	return s.boards.wait(ctx, last)
}

func checkBoard(k, day string) error {
	if err := store.CheckKey(k); err != nil {
		return err
	}
	if day != "" {
		return store.CheckDay(day)
	}
	return nil
}

// Board returns up to n results of the board for key, best first (see
// store.Results).
func (s *Store) Board(ctx context.Context, k, day string, n int) ([]store.Result, error) {
	if err := checkBoard(k, day); err != nil {
		return nil, err
	}
	n = min(max(n, 0), store.MaxBoard)
	out := []store.Result{}
	if n == 0 {
		return out, nil
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := s.catchUp(ctx, k, day); err != nil {
		return nil, err
	}
	var vals [][]byte
	s.boards.mu.Lock()
	if b := s.boards.by[boardName(k, day)]; b != nil {
		for _, e := range b.order[:min(n, len(b.order))] {
			vals = append(vals, e.val)
		}
	}
	s.boards.mu.Unlock()
	for _, v := range vals {
		var r store.Result
		if err := decode(v, fmt.Sprintf("board %s %q entry", k, day), &r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, s.currentNames(ctx, out)
}

// currentNames gives each result its account's current name, reading the
// accounts a few at a time.
func (s *Store) currentNames(ctx context.Context, rs []store.Result) error {
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	errs := make([]error, len(rs))
	for i := range rs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			a, err := s.account(ctx, rs[i].Account)
			switch {
			case err == nil:
				if a.Name != "" {
					rs[i].Name = a.Name
				}
			case !errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrCorrupt):
				errs[i] = err
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Rank is the account's place on a board (1 is first) and its entry, or
// store.ErrNotFound.
func (s *Store) Rank(ctx context.Context, account, k, day string) (int, store.Result, error) {
	if err := store.CheckID(account); err != nil {
		return 0, store.Result{}, err
	}
	if err := checkBoard(k, day); err != nil {
		return 0, store.Result{}, err
	}
	ctx, done, err := s.begin(ctx)
	if err != nil {
		return 0, store.Result{}, err
	}
	defer done()
	if err := s.catchUp(ctx, k, day); err != nil {
		return 0, store.Result{}, err
	}
	what := "board entry " + k + " " + day + " of " + account
	s.boards.mu.Lock()
	var (
		place int
		val   []byte
	)
	if b := s.boards.by[boardName(k, day)]; b != nil {
		if e := b.byAccount[account]; e != nil {
			i, _ := slices.BinarySearchFunc(b.order, e, (*boardEntry).compare)
			place, val = i+1, e.val
		}
	}
	s.boards.mu.Unlock()
	if place == 0 {
		return 0, store.Result{}, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	var r store.Result
	if err := decode(val, what, &r); err != nil {
		return 0, store.Result{}, err
	}
	return place, r, nil
}
