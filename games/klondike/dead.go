package klondike

import "sshuffle/engine"

// dead proves a position lost without searching: some card can never
// leave its column or the talon, and every card has to for a win.
//
// A blocker is a card with cards under it that can't move with it: a
// face-down card above the bottom one, or the lowest face-up card of a
// column with face-down cards. Everything under a blocker stays put until
// the blocker leaves. It leaves either for its foundation, which needs
// every lower card of its suit to get there first, or as the lead of a run
// onto a card one rank higher of the other colour, which has to be a column
// top then (a King may go to an empty column). So a card held under the
// blocker in its own column is no help to it, and a card held under other
// blockers only helps once those have left.
//
// A talon card leaves only by being played, to its foundation or onto a
// card, and in Draw 3 only once the stock can bring it to the waste top.
// dead finds the blockers that can ever leave and the talon cards that can
// ever be played in one least fixed point: an event (a blocker leaving, a
// talon card played) is in it once what it needs is. Every event of a real
// game is in it (the first one outside it would have had what it needed),
// so a blocker that never leaves, or a talon card never played, proves the
// position lost.
//
// This can become true in play: talon cards get spent, and the ones left
// can lose the cards that would bring them in reach. Tried after every
// talon move of the search, it decided 2 more of the 45 hardest Draw 3
// deals of 1..1000 but cost about 30% more time a position (still so with
// only 9 talon cards or fewer), so only the start is checked.
func (sv *solver) dead(s *sstate) bool {
	const none = 255
	var colOf, idxOf, talOf [64]uint8
	for i := range colOf {
		colOf[i], talOf[i] = none, none
	}
	var blockers [64]engine.Card
	nb := 0
	for k := range 7 {
		for j := range int(s.n[k]) {
			c := s.col[k][j]
			colOf[c], idxOf[c] = uint8(k), uint8(j)
			if j >= 1 && j <= int(s.down[k]) {
				blockers[nb] = c
				nb++
			}
		}
	}
	tn := int(s.tn)
	for i := range tn {
		talOf[s.talon[i]] = uint8(i)
	}
	if nb == 0 && tn == 0 {
		return false
	}
	var leaves [64]bool // a blocker leaves, a talon card is played
	free := func(c engine.Card) bool {
		k := colOf[c]
		for j := int(idxOf[c]) + 1; j <= int(s.down[k]); j++ {
			if !leaves[s.col[k][j]] {
				return false
			}
		}
		return true
	}
	// lower: c, a lower card of its suit, can reach its foundation ahead
	// of a card at j of column k (k none: a talon card).
	lower := func(c engine.Card, k, j uint8) bool {
		if t := talOf[c]; t != none {
			return leaves[c]
		}
		ck := colOf[c]
		if ck == none {
			return true
		}
		if ck == k {
			return idxOf[c] > j
		}
		return free(c) && (!s.isBlocker(ck, idxOf[c]) || leaves[c])
	}
	// target: t can be a column top for a card at j of column k to go on.
	target := func(t engine.Card, k, j uint8) bool {
		if talOf[t] != none {
			return leaves[t]
		}
		ck := colOf[t]
		if ck == none {
			return true // on its foundation: it may come down
		}
		if ck == k {
			return idxOf[t] > j
		}
		return free(t)
	}
	goes := func(y engine.Card, k, j uint8) bool {
		if y.Rank() == engine.King {
			return true
		}
		up := true
		for r := engine.Ace; r < y.Rank() && up; r++ {
			up = lower(engine.NewCard(r, y.Suit()), k, j)
		}
		if up {
			return true
		}
		for _, su := range engine.Suits {
			t := engine.NewCard(y.Rank()+1, su)
			if onto(y, t) && target(t, k, j) {
				return true
			}
		}
		return false
	}
	var mask uint32 = 0xffffffff
	if sv.draw == 3 {
		mask = sv.reachMask(s)
	}
	// reached: talon card i can ever come to the waste top.
	reached := func(i int) bool {
		if mask>>i&1 != 0 {
			return true
		}
		if i+1 < tn && leaves[s.talon[i+1]] {
			return true // the card on it in the waste is played
		}
		after := true
		for j := i + 1; j < tn && after; j++ {
			after = leaves[s.talon[j]]
		}
		if after {
			return true // it becomes the last card
		}
		played, at := 0, 0
		for j := range i {
			if leaves[s.talon[j]] {
				played++
				at = j
			}
		}
		switch played {
		case 0:
			return false
		case 1:
			// One card before it goes: it moves down one place, and
			// the stock, dealt again or from that card on, reaches
			// it at i-1 = 2 mod 3 or i-1 = at+2 mod 3.
			return (i-1)%3 == 2 || (i-at)%3 == 0
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for _, y := range blockers[:nb] {
			if !leaves[y] && free(y) && goes(y, colOf[y], idxOf[y]) {
				leaves[y] = true
				changed = true
			}
		}
		for i := range tn {
			c := s.talon[i]
			if !leaves[c] && goes(c, none, 0) && reached(i) {
				leaves[c] = true
				changed = true
			}
		}
	}
	for _, y := range blockers[:nb] {
		if !leaves[y] {
			return true
		}
	}
	for _, c := range s.talon[:tn] {
		if !leaves[c] {
			return true
		}
	}
	return false
}

// isBlocker: the card at j of column k is a blocker.
func (s *sstate) isBlocker(k, j uint8) bool {
	return j >= 1 && j <= s.down[k]
}
