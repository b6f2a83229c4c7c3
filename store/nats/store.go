// Package nats is the store's backend for several sshuffle nodes: every
// concern of store.Store kept in NATS JetStream key-value buckets that all
// nodes share, replicated three times in a cluster (once on a lone server).
// Badger stays the default; this backend is chosen by cmd only.
//
// # Buckets
//
// Each bucket is a JetStream stream laid out as a KV bucket (stream
// KV_<prefix>_<name>, subjects $KV.<prefix>_<name>.<key>, one value a key),
// so `nats kv` can read it, made with two settings KV buckets lack:
//
//   - direct reads off: the stream's leader answers every read, so a read
//     sees the last acknowledged write (a replica answering a direct read
//     can be behind);
//   - atomic batches on: several keys written all or nothing, each with
//     the revision it must still have (see batch in kv.go).
//
// The buckets and their keys (every variable part is a token, see tok):
//
//	accounts  a.<id>                    store.Account
//	          n.<name>                  the id holding the name (names are key-safe as they are)
//	          f.<id>                    the ids the account follows, sorted
//	          o.<id>                    the account is a bot (written with the account at its revision)
//	records   r.<id>.<hash>             one result; written only if absent, so the same result twice is kept once
//	          p.<id>                    the account's stats and streaks, every game key in one record
//	          b.<key>.<day|=>.<id>      the account's entry on a board: rank (33 bytes) then the result
//	          c.<id>.<hash>             a race, one copy per racer
//	          g.<id>.<hash>             a table game, one copy per person; written only if absent
//	          t.<id>                    the account's table stats, every table game in one record
//	          m.<id>.<hash>             a result's moves (the hash of r.), written with it
//	          y.<id>.<game>             the account's rating at a table game, written with the rated game
//	saves     v.<id>.<key>              a saved game
//	          s.<id>.<name>             a setting
//	          q.<code>                  a live table's snapshot (written at a revision by PutTableAt, see GuardedTables)
//	          l.<node>.<code>           a live race of this node (a node settles its own at a start)
//	          h.<node>.<code>.<id>      its racers' lines
//	          z.<code>                  a code kept as ended
//	          health.<node>             the health probe's key
//	dailies   d.<key>.<day>             today's deal, created once (the first writer wins)
//
// # Writes
//
// A write that changes several keys reads each with its revision, then
// writes them in one batch that expects those revisions (0: the key must
// not exist); another node's write in between fails the whole batch and the
// operation runs again from its reads (see update). Keys that must change
// together live in one bucket: a batch is one stream's. Within one node,
// writers of one record (an account's stats, a name) take a lock of the
// process first (locks.go), so they queue rather than conflict.
//
// # Boards
//
// Every handle keeps the boards in memory, ordered, fed by a watch on the
// board entries (board.go); a handle that writes an entry waits until its
// own index has it before it answers, so a player sees their own result at
// once. A board read asks the leader which entry of that board is the
// last and waits until the index has it, so every node shows one board.
//
// Lists (an account's saves, results, races) are read by a short-lived
// consumer on any replica, after asking the leader for the last revision
// the list must reach (see list in kv.go).
//
// # Adding a keyspace
//
// A new concern adds a file here (as bots.go, ratings.go, history.go did): pick the bucket
// whose batches it must join (records for anything written with a result,
// accounts for anything written with a name, saves for the rest), a
// one-letter key prefix not used above (add it to the table), keys built
// with key(...) from tokens, reads with get/list, and writes through
// s.update with the ops of one batch. Per-account figures that are read
// together belong in one record per account (as p. and t.), which one get
// reads and one expected revision guards.
package nats

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sshuffle/store"
)

var _ store.Store = (*Store)(nil)

// Options configure Open.
type Options struct {
	// Prefix names the buckets (<prefix>_accounts, ...); default
	// "sshuffle". Two arcades sharing one NATS cluster use two prefixes.
	Prefix string
	// Replicas of each bucket; 0: 3 when the server is in a cluster, 1
	// when it is alone. A bucket made already keeps its replicas.
	Replicas int
	// Node names this node: the live races it keeps are its own (see
	// LiveRaces), and its health probe's key; default "node".
	Node string
	// Timeout bounds one request to JetStream when the caller's context
	// has no deadline; default 10 s, above the 4-6 s a new stream leader
	// takes to be elected after one dies.
	Timeout time.Duration
	// Logger gets what goes wrong in the background; nil discards.
	Logger *slog.Logger
	// Name is the client connection's name, shown by the server; default
	// "sshuffle".
	Name string
}

// Store is the NATS backend. The zero value is not usable; call Open.
type Store struct {
	nc      *nats.Conn
	ownConn bool
	js      jetstream.JetStream
	opts    Options
	log     *slog.Logger
	now     func() time.Time // CreateAccount's stamps

	accounts, records, saves, dailies *bucket

	boards *boardIndex

	mu     sync.RWMutex // read-held by every operation; Close takes it to write
	closed bool
	stop   chan struct{}
	done   chan struct{}

	locksMu sync.Mutex
	locks   map[string]*keyLock // see lock

	retries atomic.Int64 // batches run again after a conflict
	observe atomic.Pointer[func(time.Duration, error)]

	healthMu  sync.Mutex
	healthErr error     // the last probe's error
	healthAt  time.Time // when the last probe succeeded
	probing   time.Time // when a probe under way started (zero: none)
}

// Open connects to the NATS servers in url (comma-separated, as nats.go
// takes them) and opens the store on them; Close closes the connection.
func Open(ctx context.Context, url string, o Options) (*Store, error) {
	name := o.Name
	if name == "" {
		name = "sshuffle"
	}
	nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond),
		nats.RetryOnFailedConnect(false))
	if err != nil {
		return nil, fmt.Errorf("store: connecting to NATS at %s: %w", url, err)
	}
	s, err := OpenConn(ctx, nc, o)
	if err != nil {
		nc.Close()
		return nil, err
	}
	s.ownConn = true
	return s, nil
}

// OpenConn opens the store on a connection the caller keeps (and closes
// after Close). It makes the buckets that do not exist yet and loads the
// boards.
func OpenConn(ctx context.Context, nc *nats.Conn, o Options) (*Store, error) {
	if o.Prefix == "" {
		o.Prefix = "sshuffle"
	}
	if o.Node == "" {
		o.Node = "node"
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if !validToken(o.Prefix) {
		return nil, fmt.Errorf("%w: bucket prefix %q (letters, digits, - and _)", store.ErrInvalid, o.Prefix)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("store: JetStream: %w", err)
	}
	if o.Replicas <= 0 {
		o.Replicas = 1
		if nc.ConnectedClusterName() != "" {
			o.Replicas = 3
		}
	}
	s := &Store{
		nc: nc, js: js, opts: o, log: log, now: time.Now,
		stop: make(chan struct{}), done: make(chan struct{}),
		locks: map[string]*keyLock{},
	}
	ctx, cancel := s.withTimeout(ctx)
	defer cancel()
	// The buckets are made at once: in a cluster each is a round of the
	// meta leader's.
	buckets := []struct {
		to   **bucket
		name string
	}{{&s.accounts, "accounts"}, {&s.records, "records"}, {&s.saves, "saves"}, {&s.dailies, "dailies"}}
	errs := make([]error, len(buckets))
	var wg sync.WaitGroup
	for i, b := range buckets {
		wg.Go(func() { *b.to, errs[i] = s.openBucket(ctx, o.Prefix+"_"+b.name) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	s.boards, err = startBoards(ctx, s)
	if err != nil {
		return nil, err
	}
	s.healthAt = time.Now()
	go s.probeLoop()
	return s, nil
}

// withTimeout gives ctx the store's timeout unless it has a deadline.
func (s *Store) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, s.opts.Timeout)
}

// begin starts an operation: nil and a release while the store is open.
func (s *Store) begin(ctx context.Context) (context.Context, func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return nil, nil, store.ErrClosed
	}
	ctx, cancel := s.withTimeout(ctx)
	return ctx, func() { cancel(); s.mu.RUnlock() }, nil
}

// Close stops the board watch and the health probe and, when Open made
// the connection, closes it. Later calls return nil.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.stop)
	s.mu.Unlock()
	<-s.done
	s.boards.close()
	if s.ownConn {
		// Drain sends what is buffered before closing.
		if err := s.nc.Drain(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			s.nc.Close()
		}
	}
	return nil
}

// ObserveWrites has fn called after every write (a batch, or one key) with
// its time and error (nil on success), for metrics. fn must be quick.
func (s *Store) ObserveWrites(fn func(time.Duration, error)) { s.observe.Store(&fn) }

// Conn is the store's NATS connection, for what else of the node talks
// over NATS (the live rooms); the store closes it if Open made it.
func (s *Store) Conn() *nats.Conn { return s.nc }

// Retries is how many batches ran again after another write changed what
// they read.
func (s *Store) Retries() int64 { return s.retries.Load() }
