// Package badger is the store's embedded backend, the default: every
// concern of store.Store in one Badger database (accounts and their names,
// results, per-game stats, daily streaks, leaderboards, today's deals, saved
// games and settings), with markers, a free-space floor, backup and restore.
package badger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"sshuffle/store"
)

const maxAttempts = 200 // conflict retries before giving up

// gcEvery is how often the value-log GC loop runs.
var gcEvery = 5 * time.Minute

var _ store.Store = (*Store)(nil)

// Store is the sshuffle database. The zero value is not usable; call Open.
type Store struct {
	db  *badger.DB
	log *slog.Logger
	now func() time.Time // only for CreateAccount's Created/LastSeen stamps

	mu      sync.RWMutex // read-held by every operation; Close takes it to write
	closed  bool
	stop    chan struct{}
	gcDone  chan struct{}
	gcRuns  atomic.Int64
	retries atomic.Int64 // transactions retried after ErrConflict

	wrote       chan struct{} // a write happened since compactLoop last looked
	compactDone chan struct{}
	compactions atomic.Int64

	dailyMu    sync.Mutex
	dailyLocks map[string]*dailyLock

	// On disk only (dir != ""): the markers and the free-space floor.
	dir        string
	opts       Options
	id         string
	markerMu   sync.Mutex
	seq        uint64        // the markers' last Seq, under markerMu
	dirty      chan struct{} // a write happened since the markers were written
	markerDone chan struct{}
	observe    atomic.Pointer[func(time.Duration, error)]

	snaps snapBatch // the table snapshots' rounds
}

// ObserveWrites has fn called after every write with its time and error
// (nil on success), for metrics. fn must be quick.
func (s *Store) ObserveWrites(fn func(time.Duration, error)) { s.observe.Store(&fn) }

// smallProfile is the tested small-memory profile from STACK-NOTES.
func smallProfile(opts badger.Options, logger *slog.Logger) badger.Options {
	return opts.
		WithMemTableSize(8 << 20).
		WithNumMemtables(2).
		WithBlockCacheSize(8 << 20).
		WithIndexCacheSize(4 << 20).
		WithNumCompactors(0). // compactLoop compacts instead
		WithNumLevelZeroTables(l0Tables).
		WithNumLevelZeroTablesStall(l0Stall).
		WithValueLogFileSize(16 << 20).
		WithSyncWrites(true).
		// Every block read is checked against its checksum, so damage
		// that appears while running is an error, not a wrong record.
		// The tables are checked whole at start by checkTables, which
		// refuses where Badger would skip a table.
		WithChecksumVerificationMode(options.OnBlockRead).
		// Uncompressed, so that the checksums cover the bytes on disk:
		// Badger checksums a block after decompressing it, and a flipped
		// byte in Snappy's encoding of repetitive records can decode to
		// the same block, so damage to the file went unseen.
		WithCompression(options.None).
		WithVerifyValueChecksum(true).
		WithLogger(badgerLogger{logger}).
		WithLoggingLevel(badger.WARNING).
		WithMetricsEnabled(false)
}

// Open opens (or creates) the store in dir with the default options.
// Badger's own messages go to logger at warning level and above; a nil
// logger discards them.
func Open(dir string, logger *slog.Logger) (*Store, error) {
	return OpenWith(dir, Options{Logger: logger})
}

// OpenWith opens (or creates) the store in dir. It refuses, with an error
// that says why and what to do, a disk below the free-space floor, a
// directory Badger would silently empty, files Badger cannot read or that
// fail their checksums, a name index that disagrees with the accounts, and
// a store that is not the one last written here (see agree). Those checks
// run before Badger opens the store for writing (see precheck), so a
// refusal changes no file.
func OpenWith(dir string, o Options) (*Store, error) {
	if dir == "" {
		return nil, fmt.Errorf("%w: empty directory (use OpenInMemory)", store.ErrInvalid)
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if o.MinFree == 0 {
		o.MinFree = DefaultMinFree
	}
	if o.freeSpace == nil {
		o.freeSpace = statfsFree
	}
	if err := o.checkFree(dir); err != nil {
		return nil, err
	}
	if err := checkUnlocked(dir); err != nil {
		return nil, err
	}
	beside, err := readMarkerFile(markerPath(dir))
	if err != nil {
		return nil, err
	}
	fresh, err := preflight(dir, beside)
	if err != nil && !(o.Accept && errors.Is(err, ErrWrongStore)) {
		return nil, err
	}
	bo := smallProfile(badger.DefaultOptions(dir), logger)
	if o.tune != nil {
		bo = o.tune(bo)
	}
	if err := checkTables(dir, bo); err != nil {
		return nil, err
	}
	checkAfter := false
	if !fresh {
		err := precheck(dir, bo, beside, o.Accept)
		switch {
		case errors.Is(err, errNoReadOnlyCheck):
			logger.Warn("store: checking after opening, so a refusal may leave Badger's recovery done", "dir", dir,
				"why", err.Error())
			checkAfter = true
		case err != nil:
			return nil, err
		}
	}
	db, err := openBadger(bo)
	if err != nil {
		return nil, err
	}
	if checkAfter {
		if err := checkNameIndex(db, dir); err != nil {
			_ = db.Close()
			return nil, err
		}
	}
	inside, empty, err := readInsideMarker(db)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("%w: reading the marker of %s: %v", ErrDamaged, dir, err)
	}
	adopt, warn, err := agree(dir, inside, beside, empty)
	if err != nil {
		if !o.Accept {
			_ = db.Close()
			return nil, err
		}
		logger.Warn("store: accepted as it is (--accept-store)", "dir", dir, "found", err.Error())
		adopt = true
	}
	if warn != "" {
		logger.Warn("store: "+warn, "dir", dir)
	}
	s := newStore(db, logger)
	s.dir, s.opts = dir, o
	if bo.SyncWrites {
		s.snaps.gather = snapGather // an unsynced store has nothing to save by gathering
	}
	switch {
	case inside != nil && !adopt:
		s.id, s.seq = inside.ID, max(inside.Seq, beside.Seq)
	case inside != nil:
		s.id, s.seq = inside.ID, inside.Seq
	default:
		s.id = newStoreID()
	}
	if fresh || adopt {
		if err := s.writeMarkers(); err != nil {
			_ = db.Close()
			return nil, err
		}
		logger.Info("store: markers written", "dir", dir, "id", s.id, "new", fresh)
	}
	go s.gcLoop(gcEvery)
	go s.markerLoop()
	go s.compactLoop()
	return s, nil
}

// OpenInMemory opens a store that lives in memory only, for tests.
func OpenInMemory() (*Store, error) { return openInMemory(nil) }

func openInMemory(tune func(badger.Options) badger.Options) (*Store, error) {
	logger := slog.New(slog.DiscardHandler)
	bo := smallProfile(badger.DefaultOptions("").WithInMemory(true), logger).WithSyncWrites(false)
	if tune != nil {
		bo = tune(bo)
	}
	db, err := badger.Open(bo)
	if err != nil {
		return nil, fmt.Errorf("store: open in memory: %w", err)
	}
	s := newStore(db, logger)
	close(s.gcDone) // no value log to collect
	close(s.markerDone)
	// Level 0 lives in memory here, and without compaction a long-running
	// test would stall once enough memtables were flushed.
	go s.compactLoop()
	return s, nil
}

func newStore(db *badger.DB, logger *slog.Logger) *Store {
	return &Store{
		db:          db,
		log:         logger,
		now:         time.Now,
		stop:        make(chan struct{}),
		gcDone:      make(chan struct{}),
		dirty:       make(chan struct{}, 1),
		markerDone:  make(chan struct{}),
		wrote:       make(chan struct{}, 1),
		compactDone: make(chan struct{}),
		dailyLocks:  map[string]*dailyLock{},
	}
}

// Close stops the GC, marker and compaction loops (waiting for a
// compaction under way) and closes the database. It is safe to call more
// than once; later calls return nil.
func (s *Store) Close() error {
	s.flushSnapshots()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.stop)
	s.mu.Unlock()
	<-s.gcDone
	<-s.markerDone
	<-s.compactDone
	var merr error
	if len(s.dirty) > 0 {
		merr = s.writeMarkers()
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return merr
}

func (s *Store) gcLoop(every time.Duration) {
	defer close(s.gcDone)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.runGC()
		}
	}
}

func (s *Store) runGC() {
	s.gcRuns.Add(1)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return
	}
	n := 0
	for {
		select {
		case <-s.stop:
			return
		default:
		}
		if err := s.db.RunValueLogGC(0.5); err != nil {
			if !errors.Is(err, badger.ErrNoRewrite) && !errors.Is(err, badger.ErrRejected) {
				s.log.Warn("store: value-log GC", "err", err)
			}
			break
		}
		n++
		s.poke() // a rewrite writes the moved entries to the tree
	}
	if n > 0 {
		s.log.Info("store: value-log GC", "rewritten", n)
	}
}

// view runs fn in a read-only transaction.
func (s *Store) view(ctx context.Context, fn func(txn *badger.Txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return store.ErrClosed
	}
	return s.db.View(fn)
}

// update runs fn in a read-write transaction, retrying on conflicts. fn may
// run several times and must not have side effects outside txn. Below the
// free-space floor it writes nothing and returns ErrNoSpace; a panic inside
// Badger's write path comes back as an error, so one failed write is one
// player's "not saved", never the server's end.
func (s *Store) update(ctx context.Context, fn func(txn *badger.Txn) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return store.ErrClosed
	}
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("store: write failed: %v", r)
		}
		if fn := s.observe.Load(); fn != nil {
			(*fn)(time.Since(start), err)
		}
	}()
	if err := s.checkSpace(); err != nil {
		return err
	}
	for attempt := 0; attempt < maxAttempts; attempt++ {
		err = s.db.Update(fn)
		if !errors.Is(err, badger.ErrConflict) {
			if err == nil {
				select {
				case s.dirty <- struct{}{}:
				default:
				}
				s.poke()
			}
			return err
		}
		s.retries.Add(1)
		if attempt > 2 {
			time.Sleep(time.Duration(attempt) * 100 * time.Microsecond)
		}
	}
	return fmt.Errorf("store: gave up after %d conflicts: %w", maxAttempts, err)
}

// Record kinds: the first byte of every key. Fields after it are separated by
// a NUL byte, which no id, key, name or day may contain.
const (
	kAccount = 'A' // A id                     -> store.Account JSON
	kName    = 'N' // N name                   -> id
	kResult  = 'R' // R id 0 when(8) spec      -> store.Result JSON
	kStats   = 'S' // S id 0 key               -> store.Stats JSON
	kStreak  = 'K' // K id 0 key               -> streak JSON
	kBoard   = 'B' // B key 0 day 0 rank(33) id -> store.Result JSON
	kEntry   = 'E' // E key 0 day 0 id         -> rank(33) of the account's entry
	kDaily   = 'D' // D key 0 day              -> spec
	kSave    = 'V' // V id 0 key               -> bytes
	kSetting = 'P' // P id 0 name              -> value
	kFollow  = 'F' // F id 0 other id          -> "" (id follows other)
	kFollowN = 'G' // G id                     -> "" (rewritten by every follow of id)
	kRace    = 'C' // C id 0 when(8) code      -> RaceRecord JSON (one copy per racer)
	kMoves   = 'M' // M id 0 when(8) spec      -> resultMoves JSON (the result R … has them)
)

func dbKey(kind byte, parts ...string) []byte {
	n := 1
	for _, p := range parts {
		n += len(p) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, kind)
	for i, p := range parts {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, p...)
	}
	return b
}

// prefix is key(kind, parts...) followed by the separator.
func prefix(kind byte, parts ...string) []byte {
	return append(dbKey(kind, parts...), 0)
}

// getJSONOrZero reads a record that may not exist yet (a player's stats or
// streak before their first game): a missing one leaves v at its zero value.
func getJSONOrZero(txn *badger.Txn, k []byte, what string, v any) error {
	if err := getJSON(txn, k, what, v); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

// getJSON reads key into v. what names the record in errors. It returns
// ErrNotFound (wrapped) when the key is missing.
func getJSON(txn *badger.Txn, k []byte, what string, v any) error {
	item, err := txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: read %s: %w", what, err)
	}
	return item.Value(func(val []byte) error { return decode(val, what, v) })
}

func decode(val []byte, what string, v any) error {
	if err := json.Unmarshal(val, v); err != nil {
		return fmt.Errorf("%w: %s: %v", store.ErrCorrupt, what, err)
	}
	return nil
}

func setJSON(txn *badger.Txn, k []byte, what string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("store: encode %s: %w", what, err)
	}
	if err := txn.Set(k, b); err != nil {
		return fmt.Errorf("store: write %s: %w", what, err)
	}
	return nil
}

// getBytes returns a copy of the value at k, or store.ErrNotFound.
func getBytes(txn *badger.Txn, k []byte, what string) ([]byte, error) {
	item, err := txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: read %s: %w", what, err)
	}
	v, err := item.ValueCopy(nil)
	if err != nil {
		return nil, fmt.Errorf("store: read %s: %w", what, err)
	}
	return v, nil
}

// badgerLogger routes Badger's warnings and errors to slog and drops the rest.
type badgerLogger struct{ l *slog.Logger }

func (b badgerLogger) Errorf(f string, a ...any) {
	b.l.Error("badger: " + trimNL(fmt.Sprintf(f, a...)))
}
func (b badgerLogger) Warningf(f string, a ...any) {
	b.l.Warn("badger: " + trimNL(fmt.Sprintf(f, a...)))
}
func (badgerLogger) Infof(string, ...any)  {}
func (badgerLogger) Debugf(string, ...any) {}

func trimNL(s string) string {
	for len(s) > 0 && s[len(s)-1] == '\n' {
		s = s[:len(s)-1]
	}
	return s
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
