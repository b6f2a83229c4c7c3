package klondike

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

func TestKeySetRemove(t *testing.T) {
	ks := newKeySet(4)
	in := map[uint64]bool{}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		// Few distinct keys, many sharing low bits, so probe runs are long.
		k := r.Uint64N(3000) << 20 * 0x10001
		if r.IntN(3) == 0 {
			ks.remove(k)
			delete(in, k)
		} else {
			require.Equal(t, !in[k], ks.add(k))
			in[k] = true
		}
	}
	require.Equal(t, len(in), ks.n)
	for k := range in {
		require.False(t, ks.add(k))
	}
}

func TestSafeNeedsSameColourTwoBelow(t *testing.T) {
	// Clubs and spades are up to 4 and hearts to 4, diamonds only to the
	// Ace: the 5♥ could still be needed to take a black 4 back down for the
	// 3♦, so it is not safe to play up automatically.
	var s sstate
	s.found[engine.Clubs], s.found[engine.Spades], s.found[engine.Hearts], s.found[engine.Diamonds] = 4, 4, 4, 1
	require.False(t, s.safe(engine.NewCard(5, engine.Hearts)))
	s.found[engine.Diamonds] = 3
	require.True(t, s.safe(engine.NewCard(5, engine.Hearts)))
}
