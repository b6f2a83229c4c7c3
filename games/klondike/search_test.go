package klondike

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

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

func TestDeadBlockers(t *testing.T) {
	sv := &solver{draw: 1}
	// The 2♠ needs the A♠ or a red 3 before it can leave, and all of them
	// lie under it.
	l := Layout{Columns: [7][]engine.Card{cards("3H 3D AS 2S")}, FaceDown: [7]int{3}}
	s := fromGame(mustLayout(t, l))
	require.True(t, sv.dead(&s))
	require.Equal(t, engine.Impossible, SolveGame(mustLayout(t, l), 1000).Outcome)
	// With the 3♦ in another column, the 2♠ can go on it once it is free.
	l = Layout{Columns: [7][]engine.Card{cards("3H AS 2S"), cards("3D")}, FaceDown: [7]int{2}}
	s = fromGame(mustLayout(t, l))
	require.False(t, sv.dead(&s))
	// A chain: the 2♠ in column 0 waits for the 3♦ under the 2♣ in
	// column 1, and the 2♣ for the A♣ or the 3♥ under the 2♠.
	l = Layout{Columns: [7][]engine.Card{cards("AS AC 3H 2S"), cards("3D 2C")},
		FaceDown: [7]int{3, 1}}
	s = fromGame(mustLayout(t, l))
	require.True(t, sv.dead(&s))
}

func TestReachMask(t *testing.T) {
	sv := &solver{draw: 3}
	for tn := 0; tn <= 24; tn++ {
		for tp := 0; tp <= tn; tp++ {
			s := sstate{tn: uint8(tn), tp: uint8(tp)}
			var want uint32
			sv.reach(&s, func(i, _ int) { want |= 1 << i })
			require.Equal(t, want, sv.reachMask(&s), "tn %d tp %d", tn, tp)
		}
	}
}

// TestKeyIncremental: the cached column hashes agree with hashing afresh
// along random lines of play, and so do the sets of talon and face-up
// cards kept up to date with them.
func TestKeyIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, draw := range []int{1, 3} {
		sv := &solver{draw: draw}
		for seed := range uint64(20) {
			v := "draw1"
			if draw == 3 {
				v = "draw3"
			}
			g, err := New(engine.Spec{Game: "klondike", Variant: v, Seed: seed})
			require.NoError(t, err)
			s := fromGame(g)
			sv.auto(&s, nil)
			for range 60 {
				sv.key(&s)
				var kids []sstate
				sv.expand(s, func(_ smove, n sstate) { kids = append(kids, n) })
				if len(kids) == 0 {
					break
				}
				s = kids[r.IntN(len(kids))]
				fresh := s
				fresh.dirty = 0xff
				require.Equal(t, sv.key(&fresh), sv.key(&s))
				var talon, faceUp uint64
				for _, c := range s.talon[:s.tn] {
					talon |= 1 << c
				}
				for k := range 7 {
					for _, c := range s.col[k][s.down[k]:s.n[k]] {
						faceUp |= 1 << c
					}
				}
				require.Equal(t, talon, s.tset)
				require.Equal(t, faceUp, s.faceUp)
			}
		}
	}
}

// uncoverer is a dominance table, one search's (domSet) or a team's
// (syncDom).
type uncoverer interface {
	uncovered(base uint64, mask uint32) (uint32, bool)
}

// covers: a position with this base searched in t reaches every card mask
// does.
func covers(t uncoverer, base uint64, mask uint32) bool {
	rest, ok := t.uncovered(base, mask)
	return ok && rest == 0
}

func TestDomSet(t *testing.T) {
	d := newDomSet(2)
	for i := range uint64(1000) {
		d.put(i*0x10001, uint32(i))
	}
	d.put(5*0x10001, 0b111)
	for i := range uint64(1000) {
		require.True(t, covers(d, i*0x10001, uint32(i)), "%d", i)
	}
	require.True(t, covers(d, 5*0x10001, 0b011))
	require.False(t, covers(d, 5*0x10001, 0b1000))
	// A mask within the union of two is covered, though in neither alone.
	d.put(6*0x10001, 0b1000)
	require.True(t, covers(d, 6*0x10001, 0b1110))
	require.False(t, covers(d, 6*0x10001, 0b1_0000))
	require.False(t, covers(d, 5000*0x10001, 0))
}

func TestLuby(t *testing.T) {
	want := []int{1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1, 1, 2}
	for i, w := range want {
		require.Equal(t, w, luby(i+1), "term %d", i+1)
	}
	// Each power of two first comes at 2^k-1, after the sequence so far
	// twice over.
	for k := 1; k < 20; k++ {
		require.Equal(t, 1<<(k-1), luby(1<<k-1))
		require.Equal(t, 1, luby(1<<k))
	}
}

// TestRunsFollowLuby: each run of a lone search stops after its term of
// the sequence in positions (and one for the start, counted anew).
func TestRunsFollowLuby(t *testing.T) {
	g, err := New(engine.Spec{Game: "klondike", Variant: "draw3", Seed: 8806})
	require.NoError(t, err)
	d := newDFS(&solver{draw: 3}, fromGame(g))
	for i := 1; i <= 8; i++ {
		before := d.nodes
		d.run(math.MaxInt)
		require.Equal(t, engine.Undecided, d.out, "run %d", i)
		require.Equal(t, restartUnit*luby(i)+1, d.nodes-before, "run %d", i)
	}
}
