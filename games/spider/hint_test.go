package spider

import (
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

// shuffleUnseen deals the face-down and stock cards out again in another
// order, keeping every seen card where it is.
func shuffleUnseen(g *Game, r *engine.RNG) *Game {
	h := *g
	var unseen []engine.Card
	s := 0
	for c := 0; c < numCols; c++ {
		unseen = append(unseen, h.p.cards[s:s+int(h.p.down[c])]...)
		s += int(h.p.n[c])
	}
	dealt := (numRows - int(h.p.rows)) * numCols
	unseen = append(unseen, h.stock[dealt:]...)
	r.Shuffle(unseen)
	s = 0
	for c := 0; c < numCols; c++ {
		s += copy(h.p.cards[s:], unseen[:h.p.down[c]])
		unseen = unseen[h.p.down[c]:]
		s += int(h.p.n[c]) - int(h.p.down[c])
	}
	copy(h.stock[dealt:], unseen)
	return &h
}

func TestHintUsesOnlySeenCards(t *testing.T) {
	positions := 0
	for n := 0; n < 300; n++ {
		spec := engine.Spec{Game: "spider", Variant: variants[n%3], Seed: uint64(1000 + n)}
		g, _ := New(spec)
		r := engine.NewRNG(uint64(n))
		for step := 0; step < 60; step++ {
			if step%6 == 0 {
				a, why, ok := g.Hint()
				for k := 0; k < 5; k++ {
					h := shuffleUnseen(g, r)
					require.Equal(t, g.Piles(), h.Piles(), "the player sees the same table")
					a2, why2, ok2 := h.Hint()
					require.Equal(t, a, a2)
					require.Equal(t, why, why2)
					require.Equal(t, ok, ok2)
				}
				if ok {
					require.NotEmpty(t, why)
					require.NoError(t, g.Clone().Do(a), "a hint is a legal action: %s", why)
				}
				positions++
			}
			_ = g.Do(randomAction(g, r))
		}
	}
	require.Greater(t, positions, 2000)
}

func TestHintChoices(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		cols []string
		want engine.Action
		ok   bool
	}{
		{"completes a run", full, []string{"KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "4D | AS", "9H 8C"},
			mv(1, 1, 0), true},
		{"turns up a card", full, []string{"9H", "4D | 8C", "QS"}, mv(1, 1, 0), true},
		{"same suit beats other suit", full, []string{"9H", "4D | 8C", "9C", "KD"}, mv(1, 1, 2), true},
		{"nothing but equal places", full, []string{"3C | 5S", "9D 8C", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D"},
			engine.Action{}, false},
		{"deal", []string{"2C 2C 2C 2C 2C 2C 2C 2C 2C 2C"}, []string{"3C | 5S", "9D 8C", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D"},
			draw, true},
		{"fill the gap", []string{"2C 2C 2C 2C 2C 2C 2C 2C 2C 2C"}, []string{"5S", "9D 8C", "9D 4H JD", "9D", "9D", "9D", "9D", "9D", "9D"},
			mv(2, 2, 9), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := layout(t, tc.rows, tc.cols...)
			a, why, ok := g.Hint()
			require.Equal(t, tc.ok, ok, why)
			require.Equal(t, tc.want, a, why)
		})
	}
}
