package engine

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// A big table is zeroed, holds what is written to it at both ends, and a
// small one too; collecting its owner gives the memory back without
// touching another table's.
func TestBigTable(t *testing.T) {
	for _, n := range []int{1 << 10, 3 << 20} {
		owner := new(int)
		s := BigTable[uint64](owner, n)
		require.Len(t, s, n)
		for i := 0; i < n; i += 4093 {
			require.Zero(t, s[i])
		}
		s[0], s[n-1] = 7, 9
		require.Equal(t, uint64(7), s[0])
		require.Equal(t, uint64(9), s[n-1])
		runtime.KeepAlive(owner)
	}
	keep := new(int)
	kept := BigTable[uint64](keep, 3<<20)
	for range 3 {
		_ = BigTable[uint64](new(int), 3<<20)
		runtime.GC()
	}
	kept[len(kept)-1] = 5
	require.Equal(t, uint64(5), kept[len(kept)-1])
	runtime.KeepAlive(keep)
}
