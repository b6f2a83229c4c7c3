package pyramid

import "sshuffle/engine"

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
		return engine.Result[engine.Action]{Outcome: engine.Impossible}
	}
	return SolveGame(g, maxNodes)
}

// SolveGame searches on from g's current position; the moves continue g.
func SolveGame(g *Game, maxNodes int) engine.Result[engine.Action] {
	s := g.st
	v := &solver{slots: s.slots}
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
	p := engine.Problem[node, engine.Action]{
		Key:    key,
		Won:    func(n node) bool { return n.gone == allSlots && n.tgone == v.all },
		Expand: v.expand,
	}
	if p.Won(start) {
		return engine.Result[engine.Action]{Outcome: engine.Solved, Nodes: 1}
	}
	return engine.Search(p, start, maxNodes)
}

func (v *solver) expand(n node, yield func(engine.Action, node)) {
	type card struct {
		pile int
		bit  int // slot or talon index
		c    engine.Card
	}
	var cs [NumSlots + 2]card
	k := 0
	for i := range NumSlots {
		if n.gone&(1<<i) == 0 && n.gone&coverMask[i] == coverMask[i] {
			cs[k] = card{i, i, v.slots[i]}
			k++
		}
	}
	nPyr := k
	tp, ti, tk := v.talon(n)
	for j := range tk {
		cs[k] = card{tp[j], ti[j], v.seq[ti[j]]}
		k++
	}
	without := func(n node, c card) node {
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
	// A King can only help by going: taking it is the one move tried.
	for _, c := range cs[:k] {
		if c.c.Rank() == engine.King {
			yield(engine.Action{Kind: engine.Auto, From: c.pile}, v.canonical(without(n, c)))
			return
		}
	}
	// Pyramid pairs first: they open the table.
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			if cs[a].c.Rank()+cs[b].c.Rank() != 13 {
				continue
			}
			if a >= nPyr && b >= nPyr {
				continue // talon pairs come after
			}
			m := without(without(n, cs[a]), cs[b])
			yield(engine.Action{Kind: engine.Move, From: cs[a].pile, To: cs[b].pile}, v.canonical(m))
		}
	}
	if tk == 2 && cs[nPyr].c.Rank()+cs[nPyr+1].c.Rank() == 13 {
		m := without(without(n, cs[nPyr]), cs[nPyr+1])
		yield(engine.Action{Kind: engine.Move, From: TurnedPile, To: WastePile}, v.canonical(m))
	}
	// Turn the next card, or redeal.
	for i := int(n.p); i < len(v.seq); i++ {
		if n.tgone&(1<<i) == 0 {
			m := n
			m.p, m.turned = int8(i+1), true
			yield(engine.Action{Kind: engine.Draw, From: StockPile}, m)
			return
		}
	}
	if n.pass < Passes && v.below(n, int(n.p)) >= 0 {
		m := n
		m.p, m.turned, m.pass = 0, false, n.pass+1
		yield(engine.Action{Kind: engine.Draw, From: StockPile}, m)
	}
}
