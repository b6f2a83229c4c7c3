package pyramid

import (
	"fmt"

	"sshuffle/engine"
)

// Hint uses only cards the player has seen: the pyramid (all face up), the
// turned card and the waste top. It never reads the stock. It prefers, in
// order: a pyramid King, a pair of pyramid cards, a pyramid card with the
// turned or waste card, a King or pair from the turned and waste cards, and
// otherwise turning the stock. Among pyramid pairs it takes the one that
// frees the most cards, then the one highest up the pyramid.
func (g *Game) Hint() (engine.Action, string, bool) {
	s := &g.st
	if g.Won() {
		return engine.Action{}, "", false
	}
	ps := s.usable()
	best, bestVal := engine.Action{}, -1
	why := ""
	consider := func(a, b, val int) {
		if val > bestVal {
			bestVal = val
			ca, _ := s.available(a)
			if a == b {
				best = engine.Action{Kind: engine.Auto, From: a}
				why = fmt.Sprintf("Remove %v: a King comes off alone.", ca)
			} else {
				cb, _ := s.available(b)
				best = engine.Action{Kind: engine.Move, From: a, To: b}
				why = fmt.Sprintf("Pair %v with %v: they add up to 13.", ca, cb)
			}
		}
	}
	for k, a := range ps {
		ca, _ := s.available(a)
		if ca.Rank() == engine.King {
			consider(a, a, s.value(a, a)+1000)
			continue
		}
		for _, b := range ps[k+1:] {
			if cb, _ := s.available(b); ca.Rank()+cb.Rank() == 13 {
				consider(a, b, s.value(a, b))
			}
		}
	}
	if bestVal >= 0 {
		return best, why, true
	}
	if s.checkDraw() == nil {
		if s.nStock == 0 {
			return engine.Action{Kind: engine.Draw, From: StockPile},
				"Nothing adds up to 13: turn the waste over for another pass.", true
		}
		return engine.Action{Kind: engine.Draw, From: StockPile},
			"Nothing adds up to 13: turn the next stock card.", true
	}
	return engine.Action{}, "", false
}

// value ranks removing piles a and b (a == b for a King): pyramid cards
// count most, then the cards they free, then how high up they sit.
func (s *state) value(a, b int) int {
	v := 0
	after := *s
	for _, p := range []int{a, b} {
		if p < NumSlots {
			v += 100 + 6 - slotRow[p]
			after.slots[p] = engine.NoCard
		}
		if a == b {
			break
		}
	}
	for i := range NumSlots {
		if s.slots[i] != engine.NoCard && !s.free(i) && after.free(i) {
			v += 10
		}
	}
	return v
}
