package badger

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"

	"sshuffle/store"
)

// Errors of opening a store that is not safe to run on. Each message says
// what was found and what the operator can do.
var (
	// ErrWrongStore: the directory is not the store sshuffle wrote last
	// (its markers disagree, or it lost writes that were acknowledged).
	ErrWrongStore = errors.New("store: not the store sshuffle wrote last")
	// ErrDamaged: files that fail their checksums or that Badger cannot
	// open (or panics on), or records that disagree (the name index and
	// the accounts).
	ErrDamaged = errors.New("store: damaged")
	// ErrNoSpace: the disk has less free space than the floor.
	ErrNoSpace = errors.New("store: disk too full")
	// ErrInUse is a store another process has open: its directory is
	// locked. Nothing is wrong with it.
	ErrInUse = errors.New("store: in use")
)

// DefaultMinFree is the free-space floor: below it the store refuses to
// open, and refuses writes while running. Badger maps its log files and
// writes through the mapping: on a full disk that is a SIGBUS, not an
// error, so the store must stop writing well before the disk is full. Its
// files in use (two 8 MB memtables with their logs, a 16 MB value log, new
// tables during compaction) fit several times over in 256 MB.
const DefaultMinFree = 256 << 20

// Options tunes OpenWith.
type Options struct {
	Logger *slog.Logger
	// MinFree is the free-space floor in bytes; 0 means DefaultMinFree and
	// a negative value turns the check off (tests on small disks).
	MinFree int64
	// Accept opens a store whose markers disagree, logs what was found,
	// and writes fresh markers: the operator's "yes, this one".
	Accept bool
	// freeSpace reports the free bytes of the disk holding a directory;
	// tests replace it.
	freeSpace func(dir string) (uint64, error)
	// tune changes Badger's options after smallProfile: tests shrink the
	// memtables to fill level 0 in a few hundred writes.
	tune func(badger.Options) badger.Options
	// beforeCompact runs before each compaction with the levels that
	// called for it, for tests to see them or to hold the compaction.
	beforeCompact func([]badger.LevelInfo)
}

// marker is what identifies a store: kept inside it (markerKey) and beside
// it (DIR.marker), written after writes, and compared at every open.
type marker struct {
	ID      string    `json:"id"`
	Seq     uint64    `json:"seq"` // how many times it was rewritten after writes
	Written time.Time `json:"written"`
}

var markerKey = []byte("M\x00marker")

// markerPath is the marker file kept beside the store directory.
func markerPath(dir string) string { return filepath.Clean(dir) + ".marker" }

func readMarkerFile(path string) (*marker, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m marker
	if err := json.Unmarshal(b, &m); err != nil || m.ID == "" {
		return nil, fmt.Errorf("%w: the marker %s cannot be read (%v)", ErrWrongStore, path, err)
	}
	return &m, nil
}

// writeMarkerFile replaces the file whole (write, sync, rename), so a crash
// leaves the old marker or the new one, never half of one.
func writeMarkerFile(path string, m marker) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func newStoreID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func statfsFree(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// existingParent is dir or its nearest existing parent, for statfs.
func existingParent(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
			return d
		}
	}
}

// checkFree refuses when the disk holding dir has less than the floor.
func (o *Options) checkFree(dir string) error {
	if o.MinFree < 0 {
		return nil
	}
	free, err := o.freeSpace(existingParent(dir))
	if err != nil {
		return fmt.Errorf("store: checking free space of %s: %w", dir, err)
	}
	if free < uint64(o.MinFree) {
		return fmt.Errorf("%w: %d MB free on the disk holding %s, below the floor of %d MB (--min-free-mb)",
			ErrNoSpace, free>>20, dir, o.MinFree>>20)
	}
	return nil
}

// preflight looks at the directory before Badger touches it: with its
// MANIFEST gone, Badger opens an empty store and deletes the old tables,
// so that case must be caught before opening, not after.
func preflight(dir string, beside *marker) (fresh bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("store: reading %s: %w", dir, err)
	}
	var data []string
	manifest := false
	for _, e := range entries {
		switch n := e.Name(); {
		case n == "MANIFEST":
			manifest = true
		case strings.HasSuffix(n, ".mem") && emptyFile(e):
			// Opened for writing, Badger fails on it only after it has
			// begun rewriting the store's files.
			return false, fmt.Errorf("%w: the memtable log %s is empty (0 bytes): the writes it held are gone, or "+
				"it was never written; nothing was changed. Move it aside to start without it (the markers then "+
				"show whether acknowledged writes are missing), or restore from a backup (sshuffle restore)",
				ErrDamaged, filepath.Join(dir, n))
		case strings.HasSuffix(n, ".sst"), strings.HasSuffix(n, ".vlog"), strings.HasSuffix(n, ".mem"):
			data = append(data, n)
		}
	}
	switch {
	case len(entries) == 0 && beside != nil:
		return false, fmt.Errorf("%w: %s is empty or missing, but %s says store %s was there (last written %s). "+
			"Restore it from a backup (sshuffle restore), or move the marker aside to start an empty store",
			ErrWrongStore, dir, markerPath(dir), beside.ID, beside.Written.Format(time.RFC3339))
	case len(entries) == 0:
		return true, nil
	case !manifest && len(data) > 0:
		return false, fmt.Errorf("%w: %s holds %d data files but no MANIFEST; opened like that, Badger would start "+
			"empty and delete them. Put the MANIFEST back or restore from a backup; nothing was changed",
			ErrDamaged, dir, len(data))
	}
	return false, nil
}

// checkTables verifies every table file whole, block by block against its
// checksums, before Badger opens any, and on this goroutine. Badger opens
// tables on goroutines of its own, where a panic on a damaged one cannot be
// recovered and ends the process; and a table whose checksum fails there is
// logged and left out, so the store would start without the records in it
// (an account gone, a name index entry gone and its name free for anyone).
// Either is a refusal here, naming the file, and nothing in the directory
// has been opened for writing yet.
func checkTables(dir string, bo badger.Options) (err error) {
	mf, err := readManifest(dir, bo)
	if err != nil || mf == nil {
		return err
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	have := map[uint64]bool{}
	for _, name := range names {
		id, ok := table.ParseFileID(name)
		if !ok {
			continue
		}
		have[id] = true
		tm, listed := mf.Tables[id]
		if !listed {
			continue // not part of the store: Badger deletes it on open
		}
		// Each table is read with the compression it was written with,
		// as Badger does: stores written before tables were left
		// uncompressed hold Snappy tables until compaction rewrites them.
		to := table.Options{ReadOnly: true, ChkMode: options.NoVerification, Compression: tm.Compression,
			BlockSize: bo.BlockSize, ZSTDCompressionLevel: bo.ZSTDCompressionLevel, BloomFalsePositive: bo.BloomFalsePositive}
		if err := checkTable(name, to); err != nil {
			return err
		}
	}
	for id := range mf.Tables {
		if !have[id] {
			return fmt.Errorf("%w: the table file %s is missing (the MANIFEST lists it); nothing was changed. "+
				"Restore the store from a backup (sshuffle restore)", ErrDamaged, table.NewFilename(id, dir))
		}
	}
	return nil
}

// readManifest reads the list of tables without opening the store; nil
// when there is no MANIFEST yet (preflight refused data files without one).
func readManifest(dir string, bo badger.Options) (m *badger.Manifest, err error) {
	path := filepath.Join(dir, "MANIFEST")
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: reading %s: %w", path, err)
	}
	defer f.Close()
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("%w: the file %s is damaged (%v); nothing was changed. Restore the store from "+
				"a backup (sshuffle restore)", ErrDamaged, path, panicText(r))
		}
	}()
	mf, _, err := badger.ReplayManifestFile(f, bo.ExternalMagicVersion, bo)
	if err != nil {
		return nil, fmt.Errorf("%w: the file %s is damaged (%v); nothing was changed. Restore the store from a "+
			"backup (sshuffle restore)", ErrDamaged, path, firstLine(err.Error()))
	}
	return &mf, nil
}

func emptyFile(e os.DirEntry) bool {
	info, err := e.Info()
	return err == nil && info.Mode().IsRegular() && info.Size() == 0
}

func checkTable(name string, to table.Options) (err error) {
	refuse := func(why string) error {
		return fmt.Errorf("%w: the table file %s is damaged (%s); nothing was changed. Restore the store from a "+
			"backup (sshuffle restore)", ErrDamaged, name, why)
	}
	defer func() {
		if r := recover(); r != nil {
			err = refuse("reading it panicked: " + panicText(r))
		}
	}()
	mf, err := z.OpenMmapFile(name, os.O_RDONLY, 0)
	if err != nil && !errors.Is(err, z.NewFile) {
		return refuse(err.Error())
	}
	// Opened without verification (which checks the index alone), then
	// verified block by block: OpenTable closes the file on some errors
	// and not on others, and a mapping unmapped twice could unmap another.
	t, err := table.OpenTable(mf, to)
	if err != nil {
		_ = mf.Close(-1)
		return refuse(firstLine(err.Error()))
	}
	// Close, not DecrRef: DecrRef to zero deletes the file.
	defer func() { _ = t.Close(-1) }()
	if err := t.VerifyChecksum(); err != nil {
		return refuse(firstLine(err.Error()))
	}
	return nil
}

// panicText is the first informative line of a panic's value, short: some
// of Badger's panics are a page of debugging output under a banner line.
func panicText(r any) string {
	for _, l := range strings.Split(fmt.Sprint(r), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "==") {
			if len(l) > 160 {
				l = l[:160] + "..."
			}
			return l
		}
	}
	return "no message"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// openBadger opens the database, turning a panic on damaged files (a
// truncated table panics inside Badger) into an error.
func openBadger(opts badger.Options) (db *badger.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			db = nil
			err = fmt.Errorf("%w: Badger panicked opening %s: %s (a damaged or truncated file; restore from a "+
				"backup: sshuffle restore)", ErrDamaged, opts.Dir, panicText(r))
			slog.Debug("badger open panic", "stack", string(debug.Stack()))
		}
	}()
	db, err = badger.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("%w: opening %s: %w", ErrDamaged, opts.Dir, err)
	}
	return db, nil
}

func readInsideMarker(db *badger.DB) (*marker, bool, error) {
	var m *marker
	empty := true
	err := db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if string(it.Item().Key()) != string(markerKey) {
				empty = false
				break
			}
		}
		item, err := txn.Get(markerKey)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error {
			m = &marker{}
			return json.Unmarshal(v, m)
		})
	})
	return m, empty, err
}

// agree decides whether the store found is the one last written, from the
// marker inside it and the one beside it.
func agree(dir string, inside, beside *marker, empty bool) (adopt bool, warn string, err error) {
	where := markerPath(dir)
	switch {
	case inside != nil && beside != nil && inside.ID != beside.ID:
		return false, "", fmt.Errorf("%w: %s holds store %s but %s names store %s: the directory was replaced or the "+
			"marker copied from elsewhere", ErrWrongStore, dir, inside.ID, where, beside.ID)
	case inside != nil && beside != nil && inside.Seq < beside.Seq:
		// The marker inside is rewritten after writes, just before the one
		// beside: an inside one that is behind means acknowledged writes
		// are gone (a truncated log, an old copy).
		return false, "", fmt.Errorf("%w: %s lost writes: its newest marker is from %s (#%d), but sshuffle had "+
			"written #%d at %s; everything written between those times is missing. Restore from a backup, or "+
			"start with --accept-store to keep what is there", ErrWrongStore, dir,
			inside.Written.Format(time.RFC3339), inside.Seq, beside.Seq, beside.Written.Format(time.RFC3339))
	case inside != nil && beside != nil:
		return false, "", nil
	case inside == nil && beside != nil:
		return false, "", fmt.Errorf("%w: %s has no marker inside but %s names store %s (last written %s): it is "+
			"not that store (emptied, or a different one). Restore from a backup, or start with --accept-store",
			ErrWrongStore, dir, where, beside.ID, beside.Written.Format(time.RFC3339))
	case inside != nil && beside == nil:
		return false, "", fmt.Errorf("%w: %s is store %s but its marker file %s is missing (copied without it?). "+
			"If this is the right store, start once with --accept-store", ErrWrongStore, dir, inside.ID, where)
	case !empty:
		return true, "store has records but no markers (written before markers existed): adopting it", nil
	}
	return true, "", nil
}

// writeMarkers rewrites the inside marker, then the one beside: in that
// order a crash between the two leaves the inside one ahead, which agree
// accepts, never behind.
func (s *Store) writeMarkers() error {
	if s.dir == "" {
		return nil
	}
	s.markerMu.Lock()
	defer s.markerMu.Unlock()
	m := marker{ID: s.id, Seq: s.seq + 1, Written: time.Now().UTC()}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(markerKey, b) }); err != nil {
		return fmt.Errorf("store: writing marker: %w", err)
	}
	if err := writeMarkerFile(markerPath(s.dir), m); err != nil {
		return fmt.Errorf("store: writing %s: %w", markerPath(s.dir), err)
	}
	s.seq = m.Seq
	return nil
}

// markerLoop rewrites the markers soon after writes: at most every
// markerEvery, so a busy store costs one extra small write a period.
func (s *Store) markerLoop() {
	defer close(s.markerDone)
	for {
		select {
		case <-s.stop:
			return
		case <-s.dirty:
		}
		if err := s.writeMarkers(); err != nil {
			s.log.Error("store: marker", "error", err.Error())
		}
		select {
		case <-s.stop:
			return
		case <-time.After(markerEvery):
		}
	}
}

var markerEvery = 200 * time.Millisecond

// Health is nil while the store takes writes.
func (s *Store) Health() error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return store.ErrClosed
	}
	return s.checkSpace()
}

// checkSpace refuses writes below the floor; the players are told their
// game was not saved, and the disk never fills under Badger's mappings.
func (s *Store) checkSpace() error {
	if s.dir == "" || s.opts.MinFree < 0 {
		return nil
	}
	return s.opts.checkFree(s.dir)
}

// Backup writes every record to w in Badger's backup format, from a
// consistent snapshot; the store keeps serving meanwhile.
func (s *Store) Backup(w io.Writer) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return store.ErrClosed
	}
	_, err := s.db.Backup(w, 0)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	return nil
}

// Restore loads a backup into a new store at dir, which must not exist
// yet or be empty (and have no marker beside it). The restored store is a
// store of its own: it gets fresh markers.
func Restore(dir string, r io.Reader, o Options) error {
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		return fmt.Errorf("%w: %s is not empty; restore only into a new directory", store.ErrInvalid, dir)
	}
	if m, _ := readMarkerFile(markerPath(dir)); m != nil {
		return fmt.Errorf("%w: %s exists (store %s was there); move it aside to restore here", store.ErrInvalid, markerPath(dir), m.ID)
	}
	s, err := OpenWith(dir, o)
	if err != nil {
		return err
	}
	// Load writes through Badger directly, not through update: it pokes
	// the compaction loop as it reads, or a large backup would fill level
	// 0 to the stall before the loop next looked.
	if err := s.db.Load(pokeReader{r, s}, 256); err != nil {
		_ = s.Close()
		return fmt.Errorf("store: restore: %w", err)
	}
	// The backup carries the old store's marker inside: this is a new store.
	if err := s.writeMarkers(); err != nil {
		_ = s.Close()
		return err
	}
	return s.Close()
}

type pokeReader struct {
	r io.Reader
	s *Store
}

func (p pokeReader) Read(b []byte) (int, error) {
	p.s.poke()
	return p.r.Read(b)
}
