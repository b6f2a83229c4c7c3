package badger

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"
)

// The snapshots of many tables handed over together are written in one
// round: a few synced transactions, not one each; each table's newest
// wins, and a deletion after a snapshot in the same round deletes it.
func TestTableSnapshotsGatherInRounds(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	var writes atomic.Int64
	s.ObserveWrites(func(time.Duration, error) { writes.Add(1) })
	const tables = 60
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() {
			require.NoError(t, s.PutTable(ctx, fmt.Sprintf("T%04d", i), []byte(fmt.Sprintf(`{"n":%d}`, i))))
		})
	}
	wg.Wait()
	require.Less(t, writes.Load(), int64(tables/6), "the tables' snapshots share transactions")
	saved, err := s.SavedTables(ctx)
	require.NoError(t, err)
	require.Len(t, saved, tables)
	require.JSONEq(t, `{"n":7}`, string(saved["T0007"]))

	// One round: a snapshot, a newer one, a deletion, and another table's
	// deletion then snapshot, each handed over after the one before.
	s.snaps.gather = time.Hour
	steps := []func() error{
		func() error { return s.PutTable(ctx, "T0001", []byte(`{"n":"old"}`)) },
		func() error { return s.PutTable(ctx, "T0001", []byte(`{"n":"new"}`)) },
		func() error { return s.DeleteTable(ctx, "T0002") },
		func() error { return s.PutTable(ctx, "T0002", []byte(`{"n":"again"}`)) },
		func() error { return s.PutTable(ctx, "T0003", []byte(`{"n":"gone"}`)) },
		func() error { return s.DeleteTable(ctx, "T0003") },
	}
	errs := make(chan error, len(steps))
	for _, step := range steps {
		before := s.snapsTaken()
		go func() { errs <- step() }()
		require.Eventually(t, func() bool { return s.snapsTaken() > before }, 5*time.Second, time.Millisecond)
	}
	s.flushSnapshots()
	for range steps {
		require.NoError(t, <-errs)
	}
	saved, err = s.SavedTables(ctx)
	require.NoError(t, err)
	require.JSONEq(t, `{"n":"new"}`, string(saved["T0001"]))
	require.JSONEq(t, `{"n":"again"}`, string(saved["T0002"]))
	require.NotContains(t, saved, "T0003")
}

// Snapshots too big for one transaction together are written in several.
func TestTableSnapshotRoundSplitsBigOnes(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	big := bytes.Repeat([]byte("x"), 700<<10) // two exceed Badger's batch limit with 8 MiB memtables
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			v := append([]byte(fmt.Sprintf(`{"n":%d,"pad":"`, i)), big...)
			require.NoError(t, s.PutTable(ctx, fmt.Sprintf("B%04d", i), append(v, `"}`...)))
		})
	}
	wg.Wait()
	saved, err := s.SavedTables(ctx)
	require.NoError(t, err)
	require.Len(t, saved, 4)
}

// Close writes the round still gathering before the store closes.
func TestCloseWritesTheGatheringRound(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	require.NoError(t, err)
	s.snaps.gather = time.Hour
	done := make(chan error, 1)
	go func() { done <- s.PutTable(context.Background(), "LATE1", []byte(`{"late":true}`)) }()
	require.Eventually(t, func() bool { return s.snapsTaken() == 1 }, 5*time.Second, time.Millisecond)
	require.NoError(t, s.Close())
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the snapshot handed over before Close was never written")
	}
	s, err = Open(dir, nil)
	require.NoError(t, err)
	defer s.Close()
	saved, err := s.SavedTables(context.Background())
	require.NoError(t, err)
	require.JSONEq(t, `{"late":true}`, string(saved["LATE1"]))
}

// snapsTaken is how many snapshots the open round holds.
func (s *Store) snapsTaken() int {
	s.snaps.mu.Lock()
	defer s.snaps.mu.Unlock()
	if s.snaps.open == nil {
		return 0
	}
	return s.snaps.taken
}

// Snapshots are stored compressed and read back as they were put; a
// snapshot stored plain (before compression) still reads, and stored bytes
// that do not decompress come back as they are, for the caller to refuse.
func TestTableSnapshotsStoredCompressed(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	snap := []byte(`{"format":1,"record":{"moves":[` + strings.Repeat(`{"k":"play","c":"7H","to":"N"},`, 100) + `{}]}}`)
	require.NoError(t, s.PutTable(ctx, "AAAAA", snap))
	raw := func(code string) []byte {
		var v []byte
		require.NoError(t, s.db.View(func(txn *badger.Txn) error {
			item, err := txn.Get(dbKey(kTableSnap, code))
			if err != nil {
				return err
			}
			v, err = item.ValueCopy(nil)
			return err
		}))
		return v
	}
	stored := raw("AAAAA")
	require.Equal(t, byte(snapPacked), stored[0])
	require.Less(t, len(stored), len(snap)/3, "compressed")

	plain := []byte(`{"format":1,"code":"BBBBB"}`)
	broken := []byte{snapPacked, 0xff, 0xff, 0xff}
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
		if err := txn.Set(dbKey(kTableSnap, "BBBBB"), plain); err != nil {
			return err
		}
		return txn.Set(dbKey(kTableSnap, "CCCCC"), broken)
	}))
	saved, err := s.SavedTables(ctx)
	require.NoError(t, err)
	require.Equal(t, map[string][]byte{"AAAAA": snap, "BBBBB": plain, "CCCCC": broken}, saved)
}
