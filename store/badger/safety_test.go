package badger

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

// Tests of a damaged or replaced store directory: markers, unreadable
// tables, the free-space floor, backups.

type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fill writes n accounts with a result each.
func fill(t *testing.T, s *Store, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		id := fmt.Sprintf("SHA256:acct%03d", i)
		_, err := s.CreateAccount(context.Background(), id, fmt.Sprintf("p%03d", i))
		require.NoError(t, err)
		require.NoError(t, s.RecordResult(context.Background(), store.Result{Account: id, Name: fmt.Sprintf("p%03d", i), Spec: "freecell 1",
			Key: "freecell", Won: true, Moves: 90 + i, Elapsed: time.Minute, Finished: t0}))
	}
}

func storeDir(t *testing.T) string { return filepath.Join(t.TempDir(), "store") }

func files(t *testing.T, dir, ext string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	require.NoError(t, err)
	return m
}

// A brand-new directory gets markers; reopening the same store is fine.
func TestFreshStoreWritesMarkers(t *testing.T) {
	dir := storeDir(t)
	s, err := Open(dir, nil)
	require.NoError(t, err)
	fill(t, s, 0, 3)
	require.NoError(t, s.Close())
	m, err := readMarkerFile(markerPath(dir))
	require.NoError(t, err)
	require.NotNil(t, m)
	s, err = Open(dir, nil)
	require.NoError(t, err, "the store sshuffle wrote last opens")
	require.Equal(t, m.ID, s.id)
	_, err = s.Account(context.Background(), "SHA256:acct002")
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// With its MANIFEST gone Badger would open empty and delete the
// tables; the store refuses before Badger touches anything.
func TestMissingManifestIsRefusedBeforeBadgerOpens(t *testing.T) {
	dir := storeDir(t)
	s, err := Open(dir, nil)
	require.NoError(t, err)
	fill(t, s, 0, 30)
	require.NoError(t, s.Close())
	tables := files(t, dir, ".sst")
	require.NotEmpty(t, tables)
	require.NoError(t, os.Remove(filepath.Join(dir, "MANIFEST")))

	_, err = Open(dir, nil)
	require.ErrorIs(t, err, ErrDamaged)
	require.Contains(t, err.Error(), "no MANIFEST")
	require.Equal(t, tables, files(t, dir, ".sst"), "no table was deleted")
	// Even with --accept-store: accepting would lose every table.
	_, err = OpenWith(dir, Options{Accept: true})
	require.ErrorIs(t, err, ErrDamaged)
}

// copyDir copies a live store's files as a crash would leave them: with
// SyncWrites every acknowledged write is in the memtable logs.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(to, 0o700))
	entries, err := os.ReadDir(from)
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(to, e.Name()), b, 0o600))
	}
}

// waitMarkers waits for the marker loop to catch up with the writes.
func waitMarkers(t *testing.T, s *Store) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s.markerMu.Lock()
		seq := s.seq
		s.markerMu.Unlock()
		if seq > 1 && len(s.dirty) == 0 {
			time.Sleep(2 * markerEvery)
			if len(s.dirty) == 0 {
				return
			}
		}
	}
	t.Fatal("the markers were never rewritten after the writes")
}

// A truncated memtable log silently drops the writes in it; the
// markers show that acknowledged writes are missing, and the open is
// refused with when they were made.
func TestTruncatedLogIsRefusedAndReported(t *testing.T) {
	dir := storeDir(t)
	s, err := Open(dir, nil)
	require.NoError(t, err)
	defer s.Close()
	fill(t, s, 0, 30)
	waitMarkers(t, s)

	crashed := storeDir(t)
	copyDir(t, dir, crashed)
	b, err := os.ReadFile(markerPath(dir))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(markerPath(crashed), b, 0o600))
	mems := files(t, crashed, ".mem")
	require.NotEmpty(t, mems)
	for _, m := range mems {
		data, err := os.ReadFile(m)
		require.NoError(t, err)
		end := len(bytes.TrimRight(data, "\x00"))
		require.NoError(t, os.Truncate(m, int64(end/10)))
	}

	_, err = Open(crashed, nil)
	require.ErrorIs(t, err, ErrWrongStore)
	require.Contains(t, err.Error(), "lost writes")

	// The operator may keep what is left; the log says what was found.
	var logs logBuf
	left, err := OpenWith(crashed, Options{Accept: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	require.Contains(t, logs.String(), "lost writes")
	require.NoError(t, left.Close())
	again, err := Open(crashed, nil)
	require.NoError(t, err, "accepted once, it opens")
	require.NoError(t, again.Close())
}

// Another store put in the place of this one, or a store whose
// marker file went missing, is refused.
func TestMarkersMustAgree(t *testing.T) {
	a, b := storeDir(t), storeDir(t)
	for _, d := range []string{a, b} {
		s, err := Open(d, nil)
		require.NoError(t, err)
		fill(t, s, 0, 2)
		require.NoError(t, s.Close())
	}
	require.NoError(t, os.RemoveAll(a))
	copyDir(t, b, a) // b's files, a's marker beside them
	_, err := Open(a, nil)
	require.ErrorIs(t, err, ErrWrongStore)
	require.Contains(t, err.Error(), "replaced")

	require.NoError(t, os.Remove(markerPath(b)))
	_, err = Open(b, nil)
	require.ErrorIs(t, err, ErrWrongStore)
	require.Contains(t, err.Error(), "marker file")
	s, err := OpenWith(b, Options{Accept: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	s, err = Open(b, nil)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	// The marker says a store was here, and the directory is empty.
	c := storeDir(t)
	s, err = Open(c, nil)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	require.NoError(t, os.RemoveAll(c))
	_, err = Open(c, nil)
	require.ErrorIs(t, err, ErrWrongStore)
	require.Contains(t, err.Error(), "empty or missing")
}

// A store written before markers existed is adopted, with a warning.
func TestStoreWithoutMarkersIsAdopted(t *testing.T) {
	dir := storeDir(t)
	db, err := badger.Open(smallProfile(badger.DefaultOptions(dir), slog.New(slog.DiscardHandler)))
	require.NoError(t, err)
	require.NoError(t, db.Update(func(txn *badger.Txn) error { return txn.Set(dbKey(kAccount, "x"), []byte(`{"ID":"x"}`)) }))
	require.NoError(t, db.Close())
	var logs logBuf
	s, err := OpenWith(dir, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	require.Contains(t, logs.String(), "adopting")
	require.NoError(t, s.Close())
	m, err := readMarkerFile(markerPath(dir))
	require.NoError(t, err)
	require.NotNil(t, m)
}

// A truncated table makes Badger panic on open; that is an error
// that names the damage, not a crash.
func TestTruncatedTableIsAnError(t *testing.T) {
	dir := storeDir(t)
	s, err := Open(dir, nil)
	require.NoError(t, err)
	fill(t, s, 0, 30)
	require.NoError(t, s.Close())
	tables := files(t, dir, ".sst")
	require.NotEmpty(t, tables)
	for _, f := range tables {
		st, err := os.Stat(f)
		require.NoError(t, err)
		require.NoError(t, os.Truncate(f, st.Size()/2))
	}
	_, err = Open(dir, nil)
	require.ErrorIs(t, err, ErrDamaged)
}

// Below the free-space floor the store does not open, and while
// running it refuses writes (the callers tell the player) and takes them
// again when space is back.
func TestFreeSpaceFloor(t *testing.T) {
	var mu sync.Mutex
	free := uint64(10 << 20)
	fs := func(string) (uint64, error) { mu.Lock(); defer mu.Unlock(); return free, nil }
	dir := storeDir(t)
	_, err := OpenWith(dir, Options{freeSpace: fs})
	require.ErrorIs(t, err, ErrNoSpace)
	require.Contains(t, err.Error(), "10 MB free")

	mu.Lock()
	free = 1 << 30
	mu.Unlock()
	s, err := OpenWith(dir, Options{freeSpace: fs})
	require.NoError(t, err)
	defer s.Close()
	fill(t, s, 0, 1)
	require.NoError(t, s.Health())

	mu.Lock()
	free = 1 << 20
	mu.Unlock()
	err = s.RecordResult(context.Background(), store.Result{Account: "SHA256:acct000", Spec: "freecell 2", Key: "freecell", Finished: t0})
	require.ErrorIs(t, err, ErrNoSpace)
	require.ErrorIs(t, s.Health(), ErrNoSpace)
	rs, err := s.Results(context.Background(), "SHA256:acct000", 10)
	require.NoError(t, err)
	require.Len(t, rs, 1, "reads go on; the acknowledged result is there")

	mu.Lock()
	free = 1 << 30
	mu.Unlock()
	require.NoError(t, s.RecordResult(context.Background(), store.Result{Account: "SHA256:acct000", Spec: "freecell 2", Key: "freecell", Finished: t0}))
}

// A backup taken while the store serves, restored into a new
// directory, has every account and result; restoring over a store is refused.
func TestBackupAndRestore(t *testing.T) {
	dir := storeDir(t)
	s, err := Open(dir, nil)
	require.NoError(t, err)
	defer s.Close()
	fill(t, s, 0, 40)
	var backup bytes.Buffer
	require.NoError(t, s.Backup(&backup))
	fill(t, s, 40, 1) // the store goes on serving

	to := storeDir(t)
	require.NoError(t, Restore(to, bytes.NewReader(backup.Bytes()), Options{}))
	r, err := Open(to, nil)
	require.NoError(t, err)
	defer r.Close()
	require.NotEqual(t, s.id, r.id, "a restored store is a store of its own")
	for i := range 40 {
		id := fmt.Sprintf("SHA256:acct%03d", i)
		a, err := r.Account(context.Background(), id)
		require.NoError(t, err)
		require.Equal(t, fmt.Sprintf("p%03d", i), a.Name)
		rs, err := r.Results(context.Background(), id, 10)
		require.NoError(t, err)
		require.Len(t, rs, 1)
		require.Equal(t, 90+i, rs[0].Moves)
	}
	_, err = r.Account(context.Background(), "SHA256:acct040")
	require.ErrorIs(t, err, store.ErrNotFound, "written after the backup")

	err = Restore(dir, strings.NewReader(""), Options{})
	require.ErrorIs(t, err, store.ErrInvalid)
	require.Contains(t, err.Error(), "not empty")
	_ = io.Discard
}
