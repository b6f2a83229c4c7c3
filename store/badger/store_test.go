package badger

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sshuffle/store"
)

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, dir
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func daily(acc, key string, d time.Time, won bool) store.Result {
	return store.Result{Account: acc, Spec: key + "/w/1", Key: key, Won: won, Finished: d, Daily: true, Day: store.Day(d), Elapsed: time.Minute}
}

func TestCorruptRecord(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.CreateAccount(context.Background(), "acc", "corrupt")
	require.NoError(t, err)
	require.NoError(t, s.RecordResult(context.Background(), store.Result{Account: "acc", Spec: "freecell/1", Key: "freecell", Won: true, Finished: t0}))
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
		if err := txn.Set(dbKey(kAccount, "acc"), []byte("{not json")); err != nil {
			return err
		}
		return txn.Set(dbKey(kStats, "acc", "freecell"), []byte("[]"))
	}))
	_, err = s.Account(context.Background(), "acc")
	require.ErrorIs(t, err, store.ErrCorrupt)
	assert.Contains(t, err.Error(), "account acc")
	_, err = s.AccountByName(context.Background(), "corrupt")
	require.ErrorIs(t, err, store.ErrCorrupt)
	_, err = s.ClaimName(context.Background(), "acc", "newname")
	require.ErrorIs(t, err, store.ErrCorrupt)
	_, err = s.StatsFor(context.Background(), "acc", "freecell")
	require.ErrorIs(t, err, store.ErrCorrupt)
	assert.Contains(t, err.Error(), "stats freecell of acc")
	_, err = s.Stats(context.Background(), "acc")
	require.ErrorIs(t, err, store.ErrCorrupt)
	err = s.RecordResult(context.Background(), store.Result{Account: "acc", Spec: "freecell/2", Key: "freecell", Finished: t0.Add(time.Minute)})
	require.ErrorIs(t, err, store.ErrCorrupt)
	// The board still reads; it cannot refresh the corrupt account's name.
	b, err := s.Board(context.Background(), "freecell", "", 10)
	require.NoError(t, err)
	assert.Len(t, b, 1)
}

func TestGCLoopRunsAndStops(t *testing.T) {
	old := gcEvery
	gcEvery = 5 * time.Millisecond
	defer func() { gcEvery = old }()
	s, _ := openTemp(t)
	for i := range 5 {
		require.NoError(t, s.PutSave(context.Background(), "a", "k", make([]byte, 64<<10-i)))
	}
	require.Eventually(t, func() bool { return s.gcRuns.Load() >= 2 }, 10*time.Second, time.Millisecond)
	done := make(chan struct{})
	go func() { _ = s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not stop the GC loop")
	}
}

// The same concurrent first calls as the conformance suite's, and then no
// lock is left behind for the day.
func TestDailyLocksDrain(t *testing.T) {
	s, _ := openTemp(t)
	var mu sync.Mutex
	calls := 0
	choose := func() (string, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		time.Sleep(5 * time.Millisecond)
		return fmt.Sprintf("klondike/draw1/w/%d", calls), nil
	}
	const n = 32
	got := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i], errs[i] = s.Daily(context.Background(), "klondike/draw1", "2026-11-30", choose) })
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		assert.Equal(t, got[0], got[i])
	}
	assert.Equal(t, 1, calls)

	// another day or key chooses again; a failing chooser keeps nothing
	other, err := s.Daily(context.Background(), "klondike/draw1", "2026-12-01", choose)
	require.NoError(t, err)
	assert.NotEqual(t, got[0], other)
	_, err = s.Daily(context.Background(), "spider/1suit", "2026-11-30", func() (string, error) { return "", errors.New("no deal") })
	require.ErrorContains(t, err, "no deal")
	sp, err := s.Daily(context.Background(), "spider/1suit", "2026-11-30", func() (string, error) { return "spider/1suit/w/7", nil })
	require.NoError(t, err)
	assert.Equal(t, "spider/1suit/w/7", sp)
	again, err := s.Daily(context.Background(), "klondike/draw1", "2026-11-30", func() (string, error) { t.Fatal("chosen again"); return "", nil })
	require.NoError(t, err)
	assert.Equal(t, got[0], again)
	assert.Empty(t, s.dailyLocks, "lock map drained")
}

// A damaged board or result entry is reported by name, not skipped or
// read as zero.
func TestCorruptListEntries(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.CreateAccount(context.Background(), "acc", "lister")
	require.NoError(t, err)
	require.NoError(t, s.RecordResult(context.Background(), store.Result{Account: "acc", Spec: "freecell/1", Key: "freecell", Won: true, Finished: t0}))
	damage := func(p []byte) {
		require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: p})
			var keys [][]byte
			for it.Rewind(); it.Valid(); it.Next() {
				keys = append(keys, it.Item().KeyCopy(nil))
			}
			it.Close()
			require.NotEmpty(t, keys)
			for _, k := range keys {
				if err := txn.Set(k, []byte("{not json")); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	damage(prefix(kResult, "acc"))
	_, err = s.Results(context.Background(), "acc", 10)
	require.ErrorIs(t, err, store.ErrCorrupt)
	assert.Contains(t, err.Error(), "of acc")
	damage(prefix(kBoard, "freecell", ""))
	_, err = s.Board(context.Background(), "freecell", "", 10)
	require.ErrorIs(t, err, store.ErrCorrupt)
	assert.Contains(t, err.Error(), "board freecell")
}

// OpenInMemory closes twice without error; Open needs a directory.
func TestOpenAndCloseTwice(t *testing.T) {
	m, err := OpenInMemory()
	require.NoError(t, err)
	_, err = m.CreateAccount(context.Background(), "x", "xyz")
	require.NoError(t, err)
	require.NoError(t, m.Close())
	require.NoError(t, m.Close())

	_, err = Open("", nil)
	assert.ErrorIs(t, err, store.ErrInvalid)
}

// The name index itself has no entry left pointing at an account that
// gave the name up, after concurrent claims.
func TestNameIndexHasNoOrphans(t *testing.T) {
	s, _ := openTemp(t)
	const n = 16
	for i := range n {
		_, err := s.CreateAccount(context.Background(), fmt.Sprintf("id%d", i), "")
		require.NoError(t, err)
	}
	for round := range 5 {
		name := fmt.Sprintf("prize%d", round)
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() { _, errs[i] = s.ClaimName(context.Background(), fmt.Sprintf("id%d", i), name) })
		}
		wg.Wait()
		winners := 0
		for i, err := range errs {
			if err == nil {
				winners++
				a, err := s.AccountByName(context.Background(), name)
				require.NoError(t, err)
				assert.Equal(t, fmt.Sprintf("id%d", i), a.ID)
			} else {
				require.ErrorIs(t, err, store.ErrNameTaken)
			}
		}
		require.Equal(t, 1, winners, "round %d", round)
	}
	// Every name index entry points to an account that holds that name.
	holders := map[string]string{}
	for i := range n {
		a, err := s.Account(context.Background(), fmt.Sprintf("id%d", i))
		require.NoError(t, err)
		if a.Name != "" {
			require.NotContains(t, holders, a.Name)
			holders[a.Name] = a.ID
		}
	}
	require.NoError(t, s.view(context.Background(), func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kName}, PrefetchValues: true})
		defer it.Close()
		count := 0
		for it.Rewind(); it.Valid(); it.Next() {
			v, _ := it.Item().ValueCopy(nil)
			assert.Equal(t, holders[string(it.Item().Key()[1:])], string(v))
			count++
		}
		assert.Equal(t, len(holders), count, "no orphan names")
		return nil
	}))
}
