package klondike

import (
	"math/bits"

	"sshuffle/engine"
)

// targetsOf[c] has a bit for each card c can go on in the tableau, and
// takersOf[c] one for each card that can go on c.
var targetsOf, takersOf = func() (t, u [64]uint64) {
	for _, su := range engine.Suits {
		for r := engine.Ace; r < engine.King; r++ {
			c := engine.NewCard(r, su)
			for _, su2 := range engine.Suits {
				if y := engine.NewCard(r+1, su2); onto(c, y) {
					t[c] |= 1 << y
					u[y] |= 1 << c
				}
			}
		}
	}
	return t, u
}()

var allCards = func() (m uint64) {
	for _, su := range engine.Suits {
		for r := engine.Ace; r <= engine.King; r++ {
			m |= 1 << engine.NewCard(r, su)
		}
	}
	return m
}()

var kings = func() (m uint64) {
	for _, su := range engine.Suits {
		m |= 1 << engine.NewCard(engine.King, su)
	}
	return m
}()

// dead proves a position lost without searching: some card can never
// leave its place, and every card has to, to reach its foundation.
//
// A card leaves its place in one of two ways. It goes up, which needs it
// free (no card on it) and every lower card of its suit up first; or it
// leads a run onto a card one rank higher of the other colour, which has
// to be a column top then (a King needs an empty column). A face-down
// card can do neither until the card on it has left. The card on a card
// stays on it until it leaves itself, wherever the two are moved together,
// so "c is ever a column top" is "c is a top now, or the card on it ever
// leaves". A card on its foundation can come back down, so it counts as a
// possible top; a talon card leaves by being played, in Draw 3 only once
// the stock can bring it to the waste top, and is a possible top after.
//
// dead finds the cards that can ever leave in one least fixed point: a
// card is in it once what it needs is. Every event of a real game is in
// it (the first one outside it would have had what it needed), so a card
// that never leaves proves the position lost. Following only blockers
// (face-down cards and the lowest face-up one) and taking every face-up
// card for a possible top is not enough: a face-up card with a run on it
// that can go nowhere is what holds most lost Draw 3 positions.
//
// The search checks every position it expands that no lay-down rule binds
// (see run): a lost position is cut where it is first reached, not after
// its whole subtree (reports/solvers.md).
func (sv *solver) dead(s *sstate) bool {
	var exp, left, need, talonSet uint64 // can be a column top; can leave; must leave
	var colOf, idxOf, talOf [64]uint8
	empty := false
	for k := range 7 {
		n := int(s.n[k])
		if n == 0 {
			empty = true
			continue
		}
		exp |= 1 << s.col[k][n-1]
		for j, c := range s.col[k][:n] {
			need |= 1 << c
			colOf[c], idxOf[c] = uint8(k), uint8(j)
		}
	}
	tn := int(s.tn)
	for i, c := range s.talon[:tn] {
		need |= 1 << c
		talonSet |= 1 << c
		talOf[c] = uint8(i)
	}
	// A card on its foundation can be a column top only once it can come
	// down: onto a card that can be a top, a King onto an empty column.
	down := allCards &^ need
	var mask uint32 = 0xffffffff
	if sv.draw == 3 {
		mask = sv.reachMask(s)
	}
	var tplayed uint32 // bit i: talon card i can be played
	// reached: talon card i can ever come to the waste top.
	reached := func(i int) bool {
		if mask>>i&1 != 0 || tplayed>>(i+1)&1 != 0 {
			return true // in reach, or the card on it in the waste is played
		}
		if rest := uint32(1)<<tn - 1&^(uint32(1)<<(i+1)-1); tplayed&rest == rest {
			return true // it becomes the last card
		}
		before := tplayed & (uint32(1)<<i - 1)
		switch bits.OnesCount32(before) {
		case 0:
			return false
		case 1:
			// One card before it goes: it moves down one place, and
			// the stock, dealt again or from that card on, reaches
			// it at i-1 = 2 mod 3 or i-1 = at+2 mod 3.
			at := bits.TrailingZeros32(before)
			return (i-1)%3 == 2 || (i-at)%3 == 0
		}
		return true
	}
	// upTo[su]: every card of the suit up to this rank can be a column
	// top, or is up, so the next can go up once it is free.
	var upTo [4]uint8
	climb := func(su engine.Suit, r uint8) uint8 {
		for r < 13 && (exp|down)>>engine.NewCard(engine.Rank(r+1), su)&1 != 0 {
			r++
		}
		return r
	}
	for _, su := range engine.Suits {
		upTo[su] = climb(su, s.found[su])
	}
	// todo holds cards to look at again: their chances have changed.
	todo := need
	grow := func(su engine.Suit) {
		r0 := upTo[su]
		if r := climb(su, r0); r != r0 {
			upTo[su] = r
			for q := r0 + 2; q <= r+1 && q <= 13; q++ {
				todo |= 1 << engine.NewCard(engine.Rank(q), su)
			}
		}
	}
	var expose func(b engine.Card)
	expose = func(b engine.Card) {
		if exp>>b&1 != 0 {
			return
		}
		exp |= 1 << b
		todo |= takersOf[b]
		grow(b.Suit())
		// Foundation cards that can come down onto it.
		for m := takersOf[b] & down &^ exp; m != 0; m &= m - 1 {
			expose(engine.Card(bits.TrailingZeros64(m)))
		}
	}
	kingsDown := func() {
		for m := kings & down &^ exp; m != 0; m &= m - 1 {
			expose(engine.Card(bits.TrailingZeros64(m)))
		}
	}
	for m := down; m != 0; m &= m - 1 {
		if c := engine.Card(bits.TrailingZeros64(m)); targetsOf[c]&exp != 0 {
			expose(c)
		}
	}
	if empty {
		kingsDown()
	}
	for {
		todo &= need &^ left
		if todo == 0 {
			break
		}
		c := engine.Card(bits.TrailingZeros64(todo))
		todo &^= 1 << c
		upOK := upTo[c.Suit()]+1 >= uint8(c.Rank())
		var lead bool
		if c.Rank() == engine.King {
			lead = empty
		} else {
			lead = targetsOf[c]&exp != 0
		}
		if talonSet>>c&1 != 0 {
			if !(upOK || lead) || !reached(int(talOf[c])) {
				continue
			}
			left |= 1 << c
			tplayed |= 1 << talOf[c]
			if lead {
				expose(c)
			} else {
				// Up: a top only once it can come down.
				down |= 1 << c
				grow(c.Suit())
			}
			todo |= talonSet // the stock reaches other cards now
			continue
		}
		k, j := int(colOf[c]), int(idxOf[c])
		free := j+1 == int(s.n[k]) || left>>s.col[k][j+1]&1 != 0
		if j < int(s.down[k]) && !free {
			continue
		}
		if !((free && upOK) || lead) {
			continue
		}
		left |= 1 << c
		if j == 0 {
			if !empty {
				empty = true
				todo |= kings
				kingsDown()
			}
		} else {
			b := s.col[k][j-1]
			expose(b)
			todo |= 1 << b
		}
		if left&need == need {
			return false
		}
	}
	return need&^left != 0
}
