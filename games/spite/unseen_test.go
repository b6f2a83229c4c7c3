package spite

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// blind returns a copy of g in which every card seat cannot see (the other
// hand, both pay-off piles under their tops, the stock) has been shuffled
// among those places, each place keeping its size.
func blind(g *Game, seat int, rng *engine.RNG) *Game {
	h := *g
	h.history = append([]engine.Acted[Action](nil), g.history...)
	s := &h.st
	o := 1 - seat
	var pool []engine.Card
	pool = append(pool, s.hand[o][:s.nHand[o]]...)
	for p := range 2 {
		if n := s.nPayoff[p]; n > 1 {
			pool = append(pool, s.payoff[p][:n-1]...)
		}
	}
	pool = append(pool, s.stock[:s.nStock]...)
	rng.Shuffle(pool)
	k := copy(s.hand[o][:s.nHand[o]], pool)
	for p := range 2 {
		if n := s.nPayoff[p]; n > 1 {
			k += copy(s.payoff[p][:n-1], pool[k:])
		}
	}
	copy(s.stock[:s.nStock], pool[k:])
	// The reshuffles to come are unseen as well.
	s.rng = *engine.NewRNG(rng.Uint64())
	return &h
}

// TestChoiceIgnoresUnseen: "a computer player's choice never changes when
// the cards its seat cannot see are shuffled". In many positions of many
// games, copies with the unseen cards shuffled give the seat an equal view,
// and every strength (a fresh player with one seed) chooses the same. Then
// two hard players, one a game, play on side by side for as long as their
// views agree, so that a plan kept across calls is checked as well.
func TestChoiceIgnoresUnseen(t *testing.T) {
	games := 150
	if testing.Short() || raceOn {
		games = 40
	}
	changed := 0
	for seed := uint64(1); seed <= uint64(games); seed++ {
		rng := engine.NewRNG(seed * 977)
		g, err := New(specOf(randomSettings(rng), seed), 2)
		require.NoError(t, err)
		players := [2]engine.Player[Action, View]{anyPlayer(rng), anyPlayer(rng)}
		for step := 0; step < 400 && g.Turn() != engine.NoSeat; step++ {
			seat := g.Turn()
			if step%3 == 0 {
				h := blind(g, seat, rng)
				if h.st != g.st {
					changed++
				}
				require.Equal(t, g.View(seat), h.View(seat), "the seat sees the same")
				for i, name := range Strengths {
					pseed := seed*100 + uint64(step*3+i)
					a, _ := NewPlayer(name, pseed)
					b, _ := NewPlayer(name, pseed)
					require.Equal(t, a.Choose(g.View(seat)), b.Choose(h.View(seat)), "%s, seed %d step %d", name, seed, step)
				}
			}
			require.NoError(t, g.Do(seat, players[seat].Choose(g.View(seat))))
		}
		// Side by side: the hard players keep their plans between calls.
		g, _ = New(specOf(randomSettings(rng), seed+1000), 2)
		for range 20 {
			seat := g.Turn()
			if seat == engine.NoSeat {
				break
			}
			require.NoError(t, g.Do(seat, players[seat].Choose(g.View(seat))))
		}
		if g.Turn() == engine.NoSeat {
			continue
		}
		seat := g.Turn()
		h := blind(g, seat, rng)
		pa, _ := NewPlayer("hard", seed)
		pb, _ := NewPlayer("hard", seed)
		for g.Turn() == seat && h.Turn() == seat {
			va, vb := g.View(seat), h.View(seat)
			if !equalViews(va, vb) {
				break // a card the seat could not see has turned up
			}
			a, b := pa.Choose(va), pb.Choose(vb)
			require.Equal(t, a, b)
			require.NoError(t, g.Do(seat, a))
			require.NoError(t, h.Do(seat, b))
		}
	}
	require.Positive(t, changed, "the shuffles did change hidden cards")
}

func equalViews(a, b View) bool {
	ja, jb := mustJSON(nil, a), mustJSON(nil, b)
	return string(ja) == string(jb)
}
