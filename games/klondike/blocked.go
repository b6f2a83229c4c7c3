package klondike

import "sshuffle/engine"

// blocked proves a position lost without searching: some card can never
// leave its column, so the cards under it never reach a foundation.
//
// A blocker is a card with cards under it that can't move with it: a
// face-down card above the bottom one, or the lowest face-up card of a
// column with face-down cards. Everything under a blocker stays put until
// the blocker leaves. It leaves either for its foundation, which needs
// every lower card of its suit to get there first, or as the lead of a run
// onto a card one rank higher of the other colour, which has to be a column
// top then (a King may go to an empty column). So a card held under the
// blocker in its own column is no help to it, and a card held under other
// blockers only helps once those have left. The least set of blockers that
// can leave under these relaxed rules holds every blocker that really ever
// leaves (the first one to leave outside it would have had what it needed);
// a blocker outside it never leaves, and the deal is lost.
//
// Nothing a move does can make this test fail later if it passes now:
// blockers only go away, and cards only get freer.
func (s *sstate) blocked() bool {
	const none = 255
	var colOf, idxOf [64]uint8
	for i := range colOf {
		colOf[i] = none
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
	if nb == 0 {
		return false
	}
	var leaves [64]bool
	// free: every blocker above c in its column has left.
	free := func(c engine.Card) bool {
		k := colOf[c]
		if k == none {
			return true
		}
		for j := int(idxOf[c]) + 1; j <= int(s.down[k]); j++ {
			if !leaves[s.col[k][j]] {
				return false
			}
		}
		return true
	}
	// helps: card c can be where y needs it, with y in column k at j.
	helps := func(c engine.Card, k, j uint8) bool {
		ck := colOf[c]
		if ck == none {
			return true
		}
		if ck == k {
			return idxOf[c] > j
		}
		return free(c)
	}
	for changed := true; changed; {
		changed = false
		for _, y := range blockers[:nb] {
			if leaves[y] || !free(y) {
				continue
			}
			k, j := colOf[y], idxOf[y]
			ok := y.Rank() == engine.King
			if !ok {
				ok = true
				for r := engine.Ace; r < y.Rank(); r++ {
					c := engine.NewCard(r, y.Suit())
					if !helps(c, k, j) || (colOf[c] != none && colOf[c] != k && s.isBlocker(colOf[c], idxOf[c]) && !leaves[c]) {
						ok = false
						break
					}
				}
			}
			if !ok {
				for _, su := range engine.Suits {
					t := engine.NewCard(y.Rank()+1, su)
					if onto(y, t) && helps(t, k, j) {
						ok = true
						break
					}
				}
			}
			if ok {
				leaves[y] = true
				changed = true
			}
		}
	}
	for _, y := range blockers[:nb] {
		if !leaves[y] {
			return true
		}
	}
	return false
}

// isBlocker: the card at j of column k is a blocker.
func (s *sstate) isBlocker(k, j uint8) bool {
	return j >= 1 && j <= s.down[k]
}
