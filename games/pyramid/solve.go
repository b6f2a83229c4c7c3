package pyramid

import (
	"math/bits"

	"sshuffle/engine"
)

// The solver sees every card. Turning and redealing never change the order
// of the talon (stock, turned card and waste): a redeal turns the waste back
// over, so the cards come again in the order they were first turned, minus
// the ones removed. A position is therefore exact in 60 bits: the pyramid
// cards gone, the talon cards gone, how far this pass has turned, whether
// the last turned card is still the turned card, and the pass.
type node struct {
	gone   uint32 // pyramid slots removed
	tgone  uint32 // talon cards removed, by turning order
	p      int8   // talon cards [0,p) have been turned this pass
	turned bool   // the talon card just below p is the turned card
	pass   int8
}

const allSlots = 1<<NumSlots - 1

type solver struct {
	// best holds, for each set of cards removed, the earliest talon time
	// reached with it (see when). A later time with the same cards gone
	// is dominated: turning on from the earlier one reaches it.
	best  map[uint64]uint8
	slots [NumSlots]engine.Card
	seq   []engine.Card // the talon in turning order
	all   uint32        // every talon bit
}

// below returns the highest talon index under p not removed, or -1.
func (v *solver) below(n node, p int) int {
	for i := p - 1; i >= 0; i-- {
		if n.tgone&(1<<i) == 0 {
			return i
		}
	}
	return -1
}

// talon returns the usable talon cards as (pile, index) pairs.
func (v *solver) talon(n node) (piles [2]int, idx [2]int, k int) {
	top := v.below(n, int(n.p))
	if top < 0 {
		return
	}
	if n.turned {
		piles[0], idx[0], k = TurnedPile, top, 1
		if w := v.below(n, top); w >= 0 {
			piles[1], idx[1], k = WastePile, w, 2
		}
		return
	}
	piles[0], idx[0], k = WastePile, top, 1
	return
}

func (v *solver) canonical(n node) node {
	if !n.turned {
		n.p = int8(v.below(n, int(n.p)) + 1)
	}
	return n
}

// when orders positions with the same cards gone by how far the talon has
// been turned: from an earlier one, turning (and redealing) alone reaches a
// later one, or one that has the same cards in play plus the turned card.
func when(n node) uint8 {
	t := (uint8(n.pass)*32 + uint8(n.p)) * 2
	if !n.turned {
		t++
	}
	return t
}

// fresh records n and reports whether no earlier-or-equal time with the
// same cards gone was seen.
func (v *solver) fresh(n node) bool {
	k := uint64(n.gone) | uint64(n.tgone)<<28
	t := when(n)
	if b, ok := v.best[k]; ok && b <= t {
		return false
	}
	v.best[k] = t
	return true
}

func key(n node) uint64 {
	k := uint64(n.gone) | uint64(n.tgone)<<28 | uint64(n.p)<<52 | uint64(n.pass)<<58
	if n.turned {
		k |= 1 << 57
	}
	return k
}

// Solve deals spec and searches it with every card known, visiting at most
// maxNodes positions. Solved results replay through New(spec) and Do.
func Solve(spec engine.Spec, maxNodes int) engine.Result[engine.Action] {
	g, err := New(spec)
	if err != nil {
		return engine.Result[engine.Action]{Outcome: engine.Undecided} // a deal that can't be made is not a lost one
	}
	return SolveGame(g, maxNodes)
}

// SolveGame searches on from g's current position; the moves continue g.
func SolveGame(g *Game, maxNodes int) engine.Result[engine.Action] {
	s := g.st
	v := &solver{slots: s.slots, best: map[uint64]uint8{}}
	v.seq = append(v.seq, s.waste[:s.nWaste]...)
	start := node{pass: int8(s.pass)}
	if s.turned != engine.NoCard {
		v.seq = append(v.seq, s.turned)
		start.turned = true
	}
	start.p = int8(len(v.seq))
	for i := s.nStock - 1; i >= 0; i-- {
		v.seq = append(v.seq, s.stock[i])
	}
	v.all = 1<<len(v.seq) - 1
	for i := range NumSlots {
		if s.slots[i] == engine.NoCard {
			start.gone |= 1 << i
		}
	}
	p := engine.Problem[node, []engine.Action]{
		Key: key,
		Won: func(n node) bool { return n.gone == allSlots && n.tgone == v.all },
		Expand: func(n node, yield func([]engine.Action, node)) {
			v.expand(n, yield)
		},
	}
	v.fresh(start)
	if p.Won(start) {
		return engine.Result[engine.Action]{Outcome: engine.Solved, Nodes: 1}
	}
	r := engine.Search(p, start, maxNodes)
	out := engine.Result[engine.Action]{Outcome: r.Outcome, Nodes: r.Nodes}
	for _, ms := range r.Moves {
		out.Moves = append(out.Moves, ms...)
	}
	return out
}

// cone[i] is every slot lying over slot i, directly or not: all of them
// must go before slot i is free.
var cone [NumSlots]uint32

func init() {
	for i := NumSlots - 1; i >= 0; i-- {
		for _, c := range cover[i] {
			cone[i] |= 1<<c | cone[c]
		}
	}
}

// dead reports a pyramid card that can never come off: every partner left
// lies over it, so each must be gone before the card is free.
func (v *solver) dead(n node) bool {
	pyr := v.pyramidByRank(n)
	var tal [14]int // talon cards left, by rank
	for i, c := range v.seq {
		if n.tgone&(1<<i) == 0 {
			tal[c.Rank()]++
		}
	}
	for r := engine.Ace; r < engine.King; r++ {
		if tal[13-r] > 0 {
			continue
		}
		for m := pyr[r]; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			if pyr[13-r]&^cone[i] == 0 {
				return true
			}
		}
	}
	return false
}

// pyramidByRank is the set of pyramid slots left for each rank.
func (v *solver) pyramidByRank(n node) (pyr [14]uint32) {
	for i := range NumSlots {
		if n.gone&(1<<i) == 0 {
			pyr[v.slots[i].Rank()] |= 1 << i
		}
	}
	return pyr
}

// deadWaste: on the last pass the waste is a plain stack. A waste card
// under the top comes free only once every card above it is gone, and the
// cards under it only after it, so its partner must be a pyramid card, a
// card still in the stock, or the turned card.
func (v *solver) deadWaste(n node, pyr *[14]uint32) bool {
	var stock [14]int
	for i := int(n.p); i < len(v.seq); i++ {
		if n.tgone&(1<<i) == 0 {
			stock[v.seq[i].Rank()]++
		}
	}
	top := int(n.p)
	var turned engine.Rank
	if n.turned {
		top = v.below(n, top)
		turned = v.seq[top].Rank()
	}
	for i := top - 1; i >= 0; i-- {
		if n.tgone&(1<<i) != 0 {
			continue
		}
		r := v.seq[i].Rank()
		if r == engine.King {
			continue
		}
		if pyr[13-r] == 0 && stock[13-r] == 0 && turned != 13-r {
			return true
		}
	}
	return false
}

type card struct {
	pile int
	bit  int // slot or talon index
	c    engine.Card
}

func without(n node, c card) node {
	if c.pile < NumSlots {
		n.gone |= 1 << c.bit
	} else {
		n.tgone |= 1 << c.bit
		if c.pile == TurnedPile {
			n.turned = false
		}
	}
	return n
}

// removals yields the removals in position n, pyr being its free pyramid
// cards. It reports a King taken: a King can only help by going, so that
// is the one move tried. With talonOnly it leaves out removals of pyramid
// cards alone: after a tap on the stock they lead where the same removal
// before the tap led.
func (v *solver) removals(n node, pyr []card, talonOnly bool, yield func(engine.Action, node)) (king bool) {
	var tc [2]card
	tp, ti, tk := v.talon(n)
	for j := range tk {
		tc[j] = card{tp[j], ti[j], v.seq[ti[j]]}
	}
	tal := tc[:tk]
	if !talonOnly {
		for _, c := range pyr {
			if c.c.Rank() == engine.King {
				yield(engine.Action{Kind: engine.Auto, From: c.pile}, v.canonical(without(n, c)))
				return true
			}
		}
	}
	for _, c := range tal {
		if c.c.Rank() == engine.King {
			yield(engine.Action{Kind: engine.Auto, From: c.pile}, v.canonical(without(n, c)))
			return true
		}
	}
	// Pyramid pairs first: they open the table.
	if !talonOnly {
		for a := range pyr {
			for b := a + 1; b < len(pyr); b++ {
				if pyr[a].c.Rank()+pyr[b].c.Rank() == 13 {
					m := without(without(n, pyr[a]), pyr[b])
					yield(engine.Action{Kind: engine.Move, From: pyr[a].pile, To: pyr[b].pile}, v.canonical(m))
				}
			}
		}
	}
	for _, t := range tal {
		for _, c := range pyr {
			if c.c.Rank()+t.c.Rank() == 13 {
				m := without(without(n, c), t)
				yield(engine.Action{Kind: engine.Move, From: c.pile, To: t.pile}, v.canonical(m))
			}
		}
	}
	if tk == 2 && tal[0].c.Rank()+tal[1].c.Rank() == 13 {
		m := without(without(n, tal[0]), tal[1])
		yield(engine.Action{Kind: engine.Move, From: TurnedPile, To: WastePile}, v.canonical(m))
	}
	return false
}

// next is the position after a tap on the stock: turn or redeal.
func (v *solver) next(n node) (node, bool) {
	for i := int(n.p); i < len(v.seq); i++ {
		if n.tgone&(1<<i) == 0 {
			n.p, n.turned = int8(i+1), true
			return n, true
		}
	}
	if n.pass < Passes && v.below(n, int(n.p)) >= 0 {
		n.p, n.turned, n.pass = 0, false, n.pass+1
		return n, true
	}
	return n, false
}

// expand yields, for every position reachable by tapping the stock alone,
// each removal there together with the taps before it. Searching over
// removals only is what makes the "earlier talon time dominates" rule of
// fresh sound: a dominated position is never the one that reaches its
// dominator.
func (v *solver) expand(n node, yield func([]engine.Action, node)) {
	if v.dead(n) {
		return
	}
	var buf [NumSlots]card
	pyr := buf[:0]
	for i := range NumSlots {
		if n.gone&(1<<i) == 0 && n.gone&coverMask[i] == coverMask[i] {
			pyr = append(pyr, card{i, i, v.slots[i]})
		}
	}
	byRank := v.pyramidByRank(n)
	d, draws := n, 0
	for {
		if d.pass == Passes && v.deadWaste(d, &byRank) {
			return
		}
		king := v.removals(d, pyr, draws > 0, func(a engine.Action, m node) {
			if !v.fresh(m) {
				return
			}
			ms := make([]engine.Action, draws+1)
			for i := range draws {
				ms[i] = engine.Action{Kind: engine.Draw, From: StockPile}
			}
			ms[draws] = a
			yield(ms, m)
		})
		var ok bool
		if d, ok = v.next(d); king || !ok {
			return
		}
		draws++
	}
}
