package badger

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/store"
	"sshuffle/store/storetest"
)

// The Badger backend passes the suite every backend must pass, on disk as
// the server runs it.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
		s, err := Open(t.TempDir(), nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		if now != nil {
			s.now = now
		}
		return s
	})
}

// And in memory, as the model tests use it.
func TestConformanceInMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
		s, err := OpenInMemory()
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		if now != nil {
			s.now = now
		}
		return s
	})
}

// The two-handle suite, with the one handle Badger has given twice: what
// several nodes must keep consistent, one process keeps too.
func TestShared(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) (store.Store, store.Store) {
		s, err := OpenInMemory()
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		return s, s
	})
}
