package badger

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of compactLoop, which compacts in place of Badger's compactors.

// tinyTables makes a memtable, and so a level-0 table, of 64 KB: about a
// hundred saves of the size below. Badger wants values kept in the tree
// to fit a batch (15% of a memtable); 8 KB still keeps these in the tree,
// as the server's are.
func tinyTables(o badger.Options) badger.Options {
	return o.WithMemTableSize(64 << 10).WithValueThreshold(8 << 10)
}

func saveValue(i, round int) []byte {
	return []byte(fmt.Sprintf("%06d/%d/%s", i, round, strings.Repeat("x", 500)))
}

func saveAccount(i int) string { return fmt.Sprintf("SHA256:acct%05d", i) }

func writeSaves(t *testing.T, s *Store, n, round int) {
	t.Helper()
	for i := range n {
		require.NoError(t, s.PutSave(context.Background(), saveAccount(i), "freecell", saveValue(i, round)))
	}
}

func checkSaves(t *testing.T, s *Store, n, round int) {
	t.Helper()
	for i := range n {
		got, err := s.GetSave(context.Background(), saveAccount(i), "freecell")
		require.NoError(t, err, "save %d", i)
		require.Equal(t, string(saveValue(i, round)), string(got), "save %d", i)
	}
}

func l0Count(s *Store) int { return s.db.Levels()[0].NumTables }

// waitCompacted waits for a compaction and level 0 back under
// NumLevelZeroTables.
func waitCompacted(t *testing.T, s *Store) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.compactions.Load() == 0 || l0Count(s) >= l0Tables {
		if time.Now().After(deadline) {
			t.Fatalf("level 0 still holds %d tables after %d compactions", l0Count(s), s.compactions.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Writes that flush level 0 past NumLevelZeroTables (but short of the
// stall, so without the loop this fails on the count instead of hanging)
// are compacted down, and every value reads back, before and after a
// reopen.
func TestCompactionDrainsLevel0(t *testing.T) {
	dir := storeDir(t)
	var seen atomic.Int64 // level-0 tables at the last compaction's start
	o := Options{MinFree: -1, tune: tinyTables, beforeCompact: func(l []badger.LevelInfo) { seen.Store(int64(l[0].NumTables)) }}
	s, err := OpenWith(dir, o)
	require.NoError(t, err)
	// About 12 tables of level 0 written in one burst, faster than the
	// loop looks.
	const n = 1300
	writeSaves(t, s, n, 1)
	waitCompacted(t, s)
	assert.GreaterOrEqual(t, seen.Load(), int64(l0Tables), "compacted before level 0 was full")
	checkSaves(t, s, n, 1)

	// Overwrite them: the compacted tree takes new versions of every key.
	writeSaves(t, s, n, 2)
	require.NoError(t, s.Close())

	s, err = OpenWith(dir, o)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	checkSaves(t, s, n, 2)
	// The reopened store compacts as well (its count starts at 0 again).
	writeSaves(t, s, n, 3)
	waitCompacted(t, s)
	checkSaves(t, s, n, 3)
}

// Writing continuously (far faster than the server writes: unsynced, into
// 64 KB memtables) goes on through three compactions of level 0, with
// writes completing while a compaction runs, and every value reads back.
// With Badger's compactors off, a store without the loop stops at the
// first stall and never completes a write again. How long a write waits
// is a measurement, BenchmarkContinuousWrites, not an assertion.
func TestContinuousWritesNeverStall(t *testing.T) {
	dir := storeDir(t)
	var compacting atomic.Int64 // the compaction count when the last one started, plus one
	s, err := OpenWith(dir, Options{MinFree: -1, tune: func(o badger.Options) badger.Options {
		return tinyTables(o).WithSyncWrites(false)
	}})
	require.NoError(t, err)
	s.opts.beforeCompact = func([]badger.LevelInfo) { compacting.Store(s.compactions.Load() + 1) }

	const keys, compactions = 400, 3
	var done atomic.Int64
	var duringCompaction int
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for i := 0; s.compactions.Load() < compactions; i++ {
			if err := s.PutSave(context.Background(), saveAccount(i%keys), "freecell", saveValue(i%keys, i/keys)); err != nil {
				t.Errorf("write %d: %v", i, err)
				return
			}
			done.Add(1)
			// A compaction started and not yet counted is running now.
			if c := compacting.Load(); c != 0 && s.compactions.Load() == c-1 {
				duringCompaction++
			}
		}
	}()
	waitOrHang(t, finished, func() string {
		return fmt.Sprintf("%d writes done, level 0 holds %d tables, %d compactions", done.Load(), l0Count(s), s.compactions.Load())
	})
	require.Positive(t, duringCompaction, "writes completed while a compaction ran")
	writes := int(done.Load())
	for k := range min(keys, writes) {
		round := (writes - 1 - k) / keys // the last round that wrote key k
		got, err := s.GetSave(context.Background(), saveAccount(k), "freecell")
		require.NoError(t, err)
		require.Equal(t, string(saveValue(k, round)), string(got), "save %d", k)
	}
	t.Logf("%d writes, %d of them while a compaction ran", writes, duringCompaction)
	require.NoError(t, s.Close())
}

// waitOrHang waits for done. A store that stops writing would hang the
// test until go test kills it; just before that deadline it fails with
// state's account instead. That is a report of a hang, not a bound on
// how long anything may take.
func waitOrHang(t *testing.T, done <-chan struct{}, state func() string) {
	t.Helper()
	deadline, ok := t.Deadline()
	if !ok {
		<-done
		return
	}
	select {
	case <-done:
	case <-time.After(time.Until(deadline) - 5*time.Second):
		// Close would wait for the stuck write: leave the store open.
		t.Fatalf("the writes stopped: %s", state())
	}
}

// BenchmarkContinuousWrites writes as fast as one writer can into 64 KB
// memtables and reports the slowest write and how many began with level 0
// at the stall, where Badger makes a write wait for a compaction.
func BenchmarkContinuousWrites(b *testing.B) {
	s, err := OpenWith(filepath.Join(b.TempDir(), "store"), Options{MinFree: -1, tune: func(o badger.Options) badger.Options {
		return tinyTables(o).WithSyncWrites(false)
	}})
	require.NoError(b, err)
	defer func() { require.NoError(b, s.Close()) }()
	const keys = 400
	var slowest time.Duration
	stalled, i := 0, 0
	for b.Loop() {
		if l0Count(s) >= l0Stall {
			stalled++
		}
		start := time.Now()
		if err := s.PutSave(context.Background(), saveAccount(i%keys), "freecell", saveValue(i%keys, i/keys)); err != nil {
			b.Fatal(err)
		}
		slowest = max(slowest, time.Since(start))
		i++
	}
	b.ReportMetric(float64(slowest)/1e6, "slowest-ms")
	b.ReportMetric(float64(stalled), "writes-at-stall")
	b.ReportMetric(float64(s.compactions.Load()), "compactions")
}

// Close waits for a compaction under way before it closes the database.
func TestCloseWaitsForCompaction(t *testing.T) {
	dir := storeDir(t)
	held, release := make(chan struct{}), make(chan struct{})
	var once atomic.Bool
	o := Options{MinFree: -1, tune: tinyTables, beforeCompact: func([]badger.LevelInfo) {
		if once.CompareAndSwap(false, true) {
			close(held)
			<-release
		}
	}}
	s, err := OpenWith(dir, o)
	require.NoError(t, err)
	const n = 1000
	writeSaves(t, s, n, 1)
	select {
	case <-held:
	case <-time.After(10 * time.Second):
		t.Fatal("no compaction started")
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while a compaction ran", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	select {
	case err := <-closed:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return after the compaction")
	}
	o.beforeCompact = nil
	s, err = OpenWith(dir, o)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	checkSaves(t, s, n, 1)
}

// The store in memory compacts too: its level 0 is in memory and would
// stall the same way.
func TestInMemoryCompacts(t *testing.T) {
	s, err := openInMemory(tinyTables)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	const n = 1300
	writeSaves(t, s, n, 1)
	waitCompacted(t, s)
	checkSaves(t, s, n, 1)
}
