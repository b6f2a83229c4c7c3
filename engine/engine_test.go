package engine

import (
	"encoding/json"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCardRoundTrip(t *testing.T) {
	seen := map[Card]bool{}
	for i, c := range Deck() {
		require.True(t, c.Valid())
		require.Equal(t, i, c.Index())
		require.False(t, seen[c])
		seen[c] = true
		p, err := ParseCard(c.ASCII())
		require.NoError(t, err)
		require.Equal(t, c, p)
		p, err = ParseCard(c.String())
		require.NoError(t, err)
		require.Equal(t, c, p)
	}
	require.Equal(t, "TH", NewCard(10, Hearts).ASCII())
	require.Equal(t, "10♥", NewCard(10, Hearts).String())
	_, err := ParseCard("1X")
	require.Error(t, err)
	_, err = ParseCard("ZH")
	require.Error(t, err)
}

func TestShuffleDeterministic(t *testing.T) {
	a := ShuffledDecks(42, 2)
	b := ShuffledDecks(42, 2)
	require.Equal(t, a, b)
	require.NotEqual(t, a, ShuffledDecks(43, 2))
	count := map[Card]int{}
	for _, c := range a {
		count[c]++
	}
	require.Len(t, count, 52)
	for _, n := range count {
		require.Equal(t, 2, n)
	}
	// The algorithm is ours, so a seed must name the same deal forever.
	require.Equal(t, uint64(0xe220a8397b1dcdaf), NewRNG(0).Uint64())
}

func TestSpecRoundTrip(t *testing.T) {
	for _, s := range []Spec{
		{Game: "klondike", Variant: "draw3", Winnable: true, Seed: 1234},
		{Game: "freecell", Seed: 617},
		{Game: "spider", Variant: "2suit", Seed: 0},
	} {
		p, err := ParseSpec(s.String())
		require.NoError(t, err)
		require.Equal(t, s, p)
	}
	for _, bad := range []string{"", "klondike", "klondike/x", "a/b/c/d/1", "k/draw1/draw3/1"} {
		_, err := ParseSpec(bad)
		require.Error(t, err, bad)
	}
}

// A counting puzzle: reach 10 from 0 by +1 or +3, never above 10.
func countProblem(cost bool) Problem[int, int] {
	p := Problem[int, int]{
		Key: func(s int) uint64 { return uint64(s) },
		Won: func(s int) bool { return s == 10 },
		Expand: func(s int, yield func(int, int)) {
			for _, d := range []int{3, 1} {
				if s+d <= 10 {
					yield(d, s+d)
				}
			}
		},
	}
	if cost {
		p.Cost = func(s int) int { return 10 - s }
	}
	return p
}

func TestSearch(t *testing.T) {
	for _, cost := range []bool{false, true} {
		r := Search(countProblem(cost), 0, 1000)
		require.Equal(t, Solved, r.Outcome)
		sum := 0
		for _, m := range r.Moves {
			sum += m
		}
		require.Equal(t, 10, sum)
	}
	// Unreachable goal: search is exhausted.
	p := countProblem(false)
	p.Won = func(s int) bool { return s == 11 }
	require.Equal(t, Impossible, Search(p, 0, 1000).Outcome)
	require.Equal(t, Undecided, Search(p, 0, 3).Outcome)
	p.Cost = func(s int) int { return -s }
	require.Equal(t, Impossible, Search(p, 0, 1000).Outcome)
}

func TestSeenSet(t *testing.T) {
	s := NewSeenSet(4)
	for i := uint64(0); i < 10000; i++ {
		require.True(t, s.Add(i*7919))
	}
	for i := uint64(0); i < 10000; i++ {
		require.False(t, s.Add(i*7919))
	}
	require.Equal(t, 10000, s.Len())
	s.Reset()
	require.Equal(t, 0, s.Len())
	for i := uint64(0); i < 10000; i++ {
		require.False(t, s.Has(i*7919))
	}
	require.True(t, s.Add(7919))
	require.Equal(t, 1, s.Len())
}

func TestSeenSetRemove(t *testing.T) {
	ks := NewSeenSet(4)
	in := map[uint64]bool{}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		// Few distinct keys, so that adds, finds and removes mix.
		k := r.Uint64N(3000) << 20 * 0x10001
		if r.IntN(3) == 0 {
			ks.Remove(k)
			delete(in, k)
		} else {
			require.Equal(t, !in[k], ks.Add(k))
			in[k] = true
		}
		if r.IntN(5) == 0 {
			q := r.Uint64N(3000) << 20 * 0x10001
			require.Equal(t, in[q], ks.Has(q))
		}
	}
	require.Equal(t, len(in), ks.Len())
	for k := range in {
		require.True(t, ks.Has(k))
		require.False(t, ks.Add(k))
	}
	ks.Remove(0)
	require.False(t, ks.Has(0))
	require.True(t, ks.Add(0))
	require.True(t, ks.Has(0))
}

func TestSyncSet(t *testing.T) {
	s := NewSyncSet(1 << 12)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Workers overlap on half their keys, as searches sharing a
			// table do.
			for i := uint64(0); i < 1500; i++ {
				s.Add((i + uint64(w%2)*1000) * 7919)
			}
		}()
	}
	wg.Wait()
	// Key 0 (i = 0) is held too, though 0 marks an empty slot.
	for i := uint64(0); i < 2500; i++ {
		require.True(t, s.Has(i*7919), "key %d", i)
	}
	require.False(t, s.Has(2500*7919))
}

func TestSyncSetFull(t *testing.T) {
	// A set with no room left drops keys instead of looping or growing.
	s := NewSyncSet(8)
	for i := uint64(1); i <= 100; i++ {
		s.Add(i)
	}
	n := 0
	for i := uint64(1); i <= 100; i++ {
		if s.Has(i) {
			n++
		}
	}
	require.Equal(t, 16, n)
}

func TestSpecSettings(t *testing.T) {
	s := Spec{Game: "spite", Settings: "centres=3,payoff=13", Seed: 42}
	require.Equal(t, "spite/centres=3,payoff=13/42", s.String())
	require.Equal(t, "spite/centres=3,payoff=13", s.Key())
	require.Equal(t, "13", s.Setting("payoff", "20"))
	require.Equal(t, "false", s.Setting("kingAce", "false"))
	p, err := ParseSpec("spite/payoff=13,centres=3/42")
	require.NoError(t, err)
	require.Equal(t, s, p, "settings are put in canonical order")
	p, err = ParseSpec("kings/draw=end/w/7")
	require.NoError(t, err)
	require.Equal(t, Spec{Game: "kings", Settings: "draw=end", Winnable: true, Seed: 7}, p)
	p, err = ParseSpec("klondike/draw3/w/1234")
	require.NoError(t, err, "a spec from before settings still reads")
	require.Equal(t, Spec{Game: "klondike", Variant: "draw3", Winnable: true, Seed: 1234}, p)

	require.Equal(t, "centres=3", CanonicalSettings(map[string]string{"payoff": "20", "centres": "3"}, map[string]string{"payoff": "20", "centres": "4"}))
	for _, bad := range []string{"spite/payoff=/1", "spite/a=1,a=2/1", "spite/a=1/b=2/1", "spite/x=\x1b[2J/1", "spite/w/draw1/1", "spite/a=1/draw1/1"} {
		_, err := ParseSpec(bad)
		require.Error(t, err, bad)
	}
}

func TestNormalizeSettings(t *testing.T) {
	defs := []Setting{{Key: "payoff", Values: []string{"20", "26", "30", "13"}}, {Key: "kingAce", Values: []string{"false", "true"}}}
	got, err := NormalizeSettings("kingAce=true,payoff=20", defs)
	require.NoError(t, err)
	require.Equal(t, "kingAce=true", got)
	_, err = NormalizeSettings("payoff=21", defs)
	require.EqualError(t, err, `payoff can be 20, 26, 30, 13, not "21"`)
	_, err = NormalizeSettings("colour=red", defs)
	require.Error(t, err)
}

func TestRecordCards(t *testing.T) {
	b, err := json.Marshal(RecordCards(MustCards("TD AS 2h")))
	require.NoError(t, err)
	require.Equal(t, `["TD","AS","2H"]`, string(b))
	var back RecordCards
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, RecordCards(MustCards("TD AS 2H")), back)
	for _, bad := range []string{`["10D"]`, `["td"]`, `["K♠"]`, `["XX"]`} {
		require.Error(t, json.Unmarshal([]byte(bad), &back), bad)
	}
}

func TestSyncSetReset(t *testing.T) {
	s := NewSyncSet(1 << 10)
	for i := uint64(0); i < 1000; i++ {
		s.Add(i * 7919)
	}
	s.Reset()
	for i := uint64(0); i < 1000; i++ {
		require.False(t, s.Has(i*7919), "key %d kept past Reset", i)
	}
	// Its room is whole again: as many keys fit as in a new set.
	for i := uint64(0); i < 1000; i++ {
		s.Add(i*7919 + 1)
	}
	for i := uint64(0); i < 1000; i++ {
		require.True(t, s.Has(i*7919+1), "key %d", i)
	}
	require.Equal(t, NewSyncSet(1<<10).Slots(), s.Slots())
}
