package tripeaks

import (
	"fmt"

	"sshuffle/engine"
)

// hintBudget caps the run search; the cap depends only on seen cards, so
// the hint stays a function of what the player knows.
const hintBudget = 200000

// Hint looks only at what the player has seen: the face-up peak cards and
// the waste. It plays the card that starts the longest run through the cards
// in view, preferring one whose removal turns a card up; with nothing to
// play it turns the stock.
func (g *Game) Hint() (engine.Action, string, bool) {
	s := &g.st
	if g.Won() {
		return engine.Action{}, "", false
	}
	var up []int
	for i := range NumSlots {
		if s.slots[i] != engine.NoCard && s.faceUp(i) {
			up = append(up, i)
		}
	}
	w := s.wasteTop()
	budget := hintBudget
	best, bestLen, bestTurns := -1, 0, -1
	for k, i := range up {
		if !fits(s.slots[i], w) {
			continue
		}
		n := 1 + longestRun(s, up, uint32(1)<<k, s.slots[i], &budget)
		t := turnsUp(s, i)
		if n > bestLen || n == bestLen && t > bestTurns {
			best, bestLen, bestTurns = i, n, t
		}
	}
	if best >= 0 {
		c := s.slots[best]
		why := fmt.Sprintf("Play %v on %v", c, w)
		if bestLen > 1 {
			why += fmt.Sprintf(": it starts a run of %d cards you can see", bestLen)
		} else if bestTurns > 0 {
			why += ": it turns a card up"
		}
		return engine.Action{Kind: engine.Move, From: best, To: WastePile}, why + ".", true
	}
	if s.nStock > 0 {
		return engine.Action{Kind: engine.Draw, From: StockPile},
			fmt.Sprintf("Nothing fits %v: turn the next stock card.", w), true
	}
	return engine.Action{}, "", false
}

// longestRun is the number of further cards among up (not in used) that can
// follow top one after another.
func longestRun(s *state, up []int, used uint32, top engine.Card, budget *int) int {
	if *budget <= 0 {
		return 0
	}
	*budget--
	best := 0
	for k, i := range up {
		if used&(1<<k) != 0 || !fits(s.slots[i], top) {
			continue
		}
		if n := 1 + longestRun(s, up, used|1<<k, s.slots[i], budget); n > best {
			best = n
		}
	}
	return best
}

// turnsUp counts the face-down cards that playing slot i would turn up.
func turnsUp(s *state, i int) int {
	n := 0
	for _, u := range coveredBy[i] {
		if s.slots[u] == engine.NoCard {
			continue
		}
		free := true
		for _, c := range cover[u] {
			if c != i && s.slots[c] != engine.NoCard {
				free = false
			}
		}
		if free {
			n++
		}
	}
	return n
}
