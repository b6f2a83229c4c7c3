//go:build unix

package badger

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// A second open of a store that is open is refused as in use, naming the
// directory, not as damaged.
func TestOpenStoreIsInUseNotDamaged(t *testing.T) {
	dir := storeDir(t)
	s, err := OpenWith(dir, Options{MinFree: -1})
	require.NoError(t, err)
	defer s.Close()
	_, err = OpenWith(dir, Options{MinFree: -1})
	require.ErrorIs(t, err, ErrInUse)
	require.False(t, errors.Is(err, ErrDamaged), "a locked store is not damaged: %v", err)
	require.Contains(t, err.Error(), dir)
	require.NotContains(t, err.Error(), "damaged")
}
