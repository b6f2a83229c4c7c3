package spite

import (
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
