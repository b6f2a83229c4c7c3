package klondike

import (
	"math/bits"
	"sync/atomic"

	"sshuffle/engine"
)

// deps says, for each fact the plain fixed point found, which cards'
// leaving the way it was found needed (the card itself for its own
// leaving). A fact whose set lacks y holds in the fixed point with y held
// in place too: that fixed point is the least one with y never leaving,
// and the same steps lead to the fact without it. So twins can tell that
// a fixed point with a twin held meets its goal without running it
// (surelyFirst), and most of them do. Each set is that of one way to the
// fact (where there are two, the smaller), so a fact may hold without y
// even when its set has y: then the held fixed point is run, as before.
type deps struct {
	leftDep, expDep [64]uint64
	freeDep         [64]uint64    // column cards: the card on it left (0 for a top)
	upDep           [4][15]uint64 // every card of the suit up to the rank a top or up
	emptyDep        uint64        // a column can be empty
	talonDep        uint64        // the talon cards played so far
}

// surelyFirst: with y held in place, the plain fixed point's own steps
// give x or y going up, or t and t' both tops, so firstOK(x, y) holds.
func (f *fixpoint) surelyFirst(x, y, t, t2 engine.Card) bool {
	st, yb := f.st, uint64(1)<<y
	if f.exp>>t&1 != 0 && f.exp>>t2&1 != 0 && (st.expDep[t]|st.expDep[t2])&yb == 0 {
		return true
	}
	return f.upsWithout(x, yb) || f.upsWithout(y, yb)
}

// upsWithout: column card c can go up in the plain fixed point, in a way
// that needs none of the cards in without to leave.
func (f *fixpoint) upsWithout(c engine.Card, without uint64) bool {
	if f.talonSet>>c&1 != 0 || f.upOK>>c&1 == 0 || f.tops>>c&1 == 0 {
		return false
	}
	return (f.st.upDep[c.Suit()][c.Rank()-1]|f.st.freeDep[c])&without == 0
}

// columnLeaveDep: what column card c's leaving needs, now that it can.
func (f *fixpoint) columnLeaveDep(c engine.Card) uint64 {
	st := f.st
	free := f.tops>>c&1 != 0
	var d uint64
	have := false
	if free && f.upOK>>c&1 != 0 {
		d, have = st.freeDep[c]|st.upDep[c.Suit()][c.Rank()-1], true
	}
	if f.lead>>c&1 != 0 {
		l := f.leadDep(c)
		if f.faceUp>>c&1 == 0 {
			l |= st.freeDep[c]
		}
		if !have || bits.OnesCount64(l) < bits.OnesCount64(d) {
			d = l
		}
	}
	d |= 1 << c
	st.leftDep[c] = d
	return d
}

// talonLeaveDep: what talon card c's leaving needs, now that it can, and
// what its being a top after needs (laid on a target: only by lead). The
// cards played before it count as needed unless it was in reach at once.
func (f *fixpoint) talonLeaveDep(c engine.Card, upOK, lead bool) (leave, top uint64) {
	st := f.st
	reach := uint64(1) << c
	if f.mask>>f.pl.talOf[c]&1 == 0 {
		reach |= st.talonDep
	}
	if lead {
		top = f.leadDep(c) | reach
		leave = top
	}
	if upOK {
		if u := st.upDep[c.Suit()][c.Rank()-1] | reach; !lead || bits.OnesCount64(u) < bits.OnesCount64(leave) {
			leave = u
		}
	}
	st.leftDep[c] = leave
	st.talonDep |= leave
	return leave, top
}

// leadDep: what a target for c that can be a top needs (a King: an empty
// column).
func (f *fixpoint) leadDep(c engine.Card) uint64 {
	if c.Rank() == engine.King {
		return f.st.emptyDep
	}
	ts := targetsOf[c] & f.exp
	d := f.st.expDep[bits.TrailingZeros64(ts)]
	if ts &= ts - 1; ts != 0 {
		if d2 := f.st.expDep[bits.TrailingZeros64(ts)]; bits.OnesCount64(d2) < bits.OnesCount64(d) {
			d = d2
		}
	}
	return d
}

// downDep: what foundation card c's coming down needs (see canDown): the
// card on it there down first, a target, and for a talon card its going
// up.
func (f *fixpoint) downDep(c engine.Card) uint64 {
	if f.st == nil {
		return 0
	}
	d := f.leadDep(c)
	if r := c.Rank(); uint8(r) < f.found[c.Suit()] {
		d |= f.st.expDep[engine.NewCard(r+1, c.Suit())]
	}
	if f.talonSet>>c&1 != 0 {
		d |= f.st.leftDep[c]
	}
	return d
}

// rankDep: what card c's being a top or up needs, as upTo climbs over it.
func (f *fixpoint) rankDep(c engine.Card) uint64 {
	if f.talonSet>>c&1 != 0 && f.down>>c&1 != 0 {
		return f.st.leftDep[c] // a talon card that went up
	}
	if f.exp>>c&1 != 0 {
		return f.st.expDep[c]
	}
	return 0 // on its foundation from the start
}

// checkSurely makes twins run the held fixed points surelyFirst spares
// and count each one that does not meet its goal in surelyWrong (tests).
var (
	checkSurely               bool
	surelyWrong, surelySpared atomic.Int64
)

func (f *fixpoint) checkSurelyFirst(s *sstate, x, y, t, t2 engine.Card) {
	surelySpared.Add(1)
	if f.surelyFirst(x, y, t, t2) && !f.firstOK(s, x, y, t, t2) {
		surelyWrong.Add(1)
	}
	if f.surelyFirst(y, x, t, t2) && !f.firstOK(s, y, x, t, t2) {
		surelyWrong.Add(1)
	}
}
