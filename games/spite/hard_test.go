package spite

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// turnOf lets a fresh hard player play seat 0's whole turn and returns the
// actions it took.
func turnOf(t *testing.T, g *Game) []Action {
	t.Helper()
	p, _ := NewPlayer("hard", 1)
	var out []Action
	for g.Turn() == 0 {
		a := p.Choose(g.View(0))
		require.NoError(t, g.Do(0, a))
		out = append(out, a)
	}
	return out
}

func TestHardPlansTheTurn(t *testing.T) {
	t.Run("a chain to the pay-off top, with a King for the gap", func(t *testing.T) {
		// The stack needs a 5; 5, 6 from hand and side, the King as the 7,
		// then the pay-off 8.
		g := arrange(t, table{
			payoff:  [2]string{"4C 8D", "3C 2D"},
			hand:    [2]string{"KH 5S TH JS QS", "4C 4D 4H 4S 5C"},
			sides:   [2][SideStacks]string{{"6D"}},
			centres: []string{"AC 2H 3H 4S", ""},
			stock:   "9C 9D 9H 9S TC",
		})
		got := turnOf(t, g)
		require.Equal(t, []Action{
			PlayHand(card("5S"), 0), PlaySide(0, 0), PlayHand(card("KH"), 0), PlayPayoff(0),
		}, got[:4])
	})
	t.Run("no card that feeds the opponent's pay-off top", func(t *testing.T) {
		// Playing the 6 would leave the stack needing a 7: the opponent's
		// pay-off top.
		g := arrange(t, table{
			payoff:  [2]string{"4C 3D", "3C 7D"},
			hand:    [2]string{"6S 9H TH JS QS", "4C 4D 4H 4S 5C"},
			centres: []string{"AC 2H 3H 4S 5D", ""},
			stock:   "9C 9D 9H 9S TC",
		})
		got := turnOf(t, g)
		require.Len(t, got, 1)
		require.Equal(t, Discard, got[0].Do)
		require.NotEqual(t, card("6S"), got[0].Card, "and the 6 stays in hand rather than on top of a side stack")
		// normal plays the 6.
		g = arrange(t, table{
			payoff:  [2]string{"4C 3D", "3C 7D"},
			hand:    [2]string{"6S 9H TH JS QS", "4C 4D 4H 4S 5C"},
			centres: []string{"AC 2H 3H 4S 5D", ""},
			stock:   "9C 9D 9H 9S TC",
		})
		n, _ := NewPlayer("normal", 1)
		require.Equal(t, PlayHand(card("6S"), 0), n.Choose(g.View(0)))
	})
	t.Run("a card that blocks the opponent", func(t *testing.T) {
		// The stack already needs the opponent's 7: playing the own 7 on it
		// moves it past.
		g := arrange(t, table{
			payoff:  [2]string{"4C 3D", "3C 7D"},
			hand:    [2]string{"7S 9H TH JS QS", "4C 4D 4H 4S 5C"},
			centres: []string{"AC 2H 3H 4S 5D 6H", ""},
			stock:   "9C 9D 9H 9S TC",
		})
		got := turnOf(t, g)
		require.Equal(t, PlayHand(card("7S"), 0), got[0])
	})
	t.Run("the discard builds down and keeps the King", func(t *testing.T) {
		g := arrange(t, table{
			payoff:  [2]string{"4C QD", "3C 9D"},
			hand:    [2]string{"KS 9H 7S", "4C 4D 4H 4S 5C"},
			sides:   [2][SideStacks]string{{"TD", "5H", "QC", "4D"}},
			centres: []string{"AC", ""},
			stock:   "9C 9D 9H 9S TC",
		})
		got := turnOf(t, g)
		require.Equal(t, []Action{DiscardTo(card("9H"), 0)}, got)
	})
}

// TestPlayersOnlyLegal: every strength, in every kind of position random
// play reaches, chooses an action Legal lists.
func TestPlayersOnlyLegal(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		rng := engine.NewRNG(seed)
		g, _ := New(specOf(randomSettings(rng), seed), 2)
		r := randomPlayer{rng}
		for step := 0; step < 300 && g.Turn() != engine.NoSeat; step++ {
			seat := g.Turn()
			v := g.View(seat)
			for _, name := range Strengths {
				p, _ := NewPlayer(name, seed)
				require.Contains(t, g.Legal(seat), p.Choose(v), name)
			}
			require.NoError(t, g.Do(seat, r.Choose(v)))
		}
	}
	_, err := NewPlayer("expert", 1)
	require.Error(t, err)
}
