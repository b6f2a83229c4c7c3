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
	best  timeTable
	slots [NumSlots]engine.Card
	seq   []engine.Card // the talon in turning order
	all   uint32        // every talon bit
	// byRank[r] is the talon cards of rank r, by turning order.
	byRank    [14]uint32
	leftCache [1 << leftCacheBits]leftEntry

	nodes, maxNodes int
	kids            []kid // the children of every position on the path
	path            []kid // the moves to the position being expanded
}

// kid is a move: draws taps on the stock, then the removal a, leading to n.
type kid struct {
	n     node
	draws int8
	a     engine.Action
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

func (v *solver) canonical(n node) node {
	if !n.turned {
		n.p = int8(v.below(n, int(n.p)) + 1)
	}
	return n
}

// Suits play no part in Pyramid, so two positions with the same pyramid
// cards gone and the same ranks left in the talon, in the same order and
// turned as far, are the same game. tkey names the talon's ranks left by
// where they first fit in the talon's turning order (the leftmost way to
// pick them out of it), and counts the cards left that this pass has turned.
func (v *solver) tkey(n node) (left uint32, turned int) {
	rest := v.all &^ n.tgone
	turned = bits.OnesCount32(rest & (1<<n.p - 1))
	// The children of one position share most talon sets: a small cache
	// saves most of the fitting.
	e := &v.leftCache[(n.tgone*0x9E3779B1)>>(32-leftCacheBits)]
	if e.set && e.tgone == n.tgone {
		return e.left, turned
	}
	j := 0
	for m := rest; m != 0; m &= m - 1 {
		// The real cards fit, so the leftmost fit never passes this one.
		j += bits.TrailingZeros32(v.byRank[v.seq[bits.TrailingZeros32(m)].Rank()] >> j)
		left |= 1 << j
		j++
	}
	*e = leftEntry{n.tgone, left, true}
	return left, turned
}

const leftCacheBits = 10

type leftEntry struct {
	tgone, left uint32
	set         bool
}

// when orders positions with the same cards left by how far the talon has
// been turned: from an earlier one, turning (and redealing) alone reaches a
// later one, or one that has the same cards in play plus the turned card.
func when(n node, turned int) uint8 {
	t := (uint8(n.pass)*32 + uint8(turned)) * 2
	if !n.turned {
		t++
	}
	return t
}

// fresh records n and reports whether no earlier-or-equal time with the
// same cards left was seen.
func (v *solver) fresh(n node) bool {
	left, turned := v.tkey(n)
	return v.best.lower(uint64(n.gone)|uint64(left)<<NumSlots, when(n, turned))
}

// current reports whether n's time is still the earliest known for its
// cards left: a sibling's line may have reached them sooner since n was
// recorded, and then n is dominated.
func (v *solver) current(n node) bool {
	left, turned := v.tkey(n)
	t, _ := v.best.get(uint64(n.gone) | uint64(left)<<NumSlots)
	return t == when(n, turned)
}

// timeTable maps a 52-bit key to a time: open addressing, linear probing,
// each entry (key+1)<<8 | time so that 0 is empty. A Go map costs about
// three times as much per position here, and positions are most of the
// work.
type timeTable struct {
	e     []uint64
	n     int
	shift uint
}

func (h *timeTable) slot(k uint64) uint64 {
	return (k * 0x9E3779B97F4A7C15) >> h.shift
}

func (h *timeTable) get(k uint64) (uint8, bool) {
	if h.e == nil {
		return 0, false
	}
	mask := uint64(len(h.e) - 1)
	for i := h.slot(k); ; i = (i + 1) & mask {
		e := h.e[i]
		if e == 0 {
			return 0, false
		}
		if e>>8 == k+1 {
			return uint8(e), true
		}
	}
}

// lower sets k's time to t if k has none or a later one, and reports
// whether it did.
func (h *timeTable) lower(k uint64, t uint8) bool {
	if 2*(h.n+1) > len(h.e) {
		h.grow()
	}
	mask := uint64(len(h.e) - 1)
	for i := h.slot(k); ; i = (i + 1) & mask {
		e := h.e[i]
		if e == 0 {
			h.e[i] = (k+1)<<8 | uint64(t)
			h.n++
			return true
		}
		if e>>8 == k+1 {
			if uint8(e) <= t {
				return false
			}
			h.e[i] = (k+1)<<8 | uint64(t)
			return true
		}
	}
}

func (h *timeTable) grow() {
	old := h.e
	size := max(1<<12, 2*len(old))
	h.e = make([]uint64, size)
	h.shift = uint(64 - bits.TrailingZeros(uint(size)))
	h.n = 0
	for _, e := range old {
		if e != 0 {
			h.lower(e>>8-1, uint8(e))
		}
	}
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
	v := &solver{slots: s.slots, maxNodes: maxNodes}
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
	for i, c := range v.seq {
		v.byRank[c.Rank()] |= 1 << i
	}
	for i := range NumSlots {
		if s.slots[i] == engine.NoCard {
			start.gone |= 1 << i
		}
	}
	v.fresh(start)
	v.nodes = 1
	if v.won(start) {
		return engine.Result[engine.Action]{Outcome: engine.Solved, Nodes: 1}
	}
	out := engine.Result[engine.Action]{Outcome: v.dfs(start)}
	out.Nodes = v.nodes
	if out.Outcome == engine.Solved {
		for _, k := range v.path {
			for range k.draws {
				out.Moves = append(out.Moves, engine.Action{Kind: engine.Draw, From: StockPile})
			}
			out.Moves = append(out.Moves, k.a)
		}
	}
	return out
}

func (v *solver) won(n node) bool { return n.gone == allSlots && n.tgone == v.all }

// dfs searches depth first from n, which it has counted; on Solved v.path
// holds the moves from the start.
func (v *solver) dfs(n node) engine.Outcome {
	base := len(v.kids)
	v.expand(n)
	end := len(v.kids)
	defer func() { v.kids = v.kids[:base] }()
	for i := base; i < end; i++ {
		k := v.kids[i]
		if !v.current(k.n) {
			continue
		}
		v.nodes++
		v.path = append(v.path, k)
		if v.won(k.n) {
			return engine.Solved
		}
		if v.nodes >= v.maxNodes {
			return engine.Undecided
		}
		switch v.dfs(k.n) {
		case engine.Solved:
			return engine.Solved
		case engine.Undecided:
			return engine.Undecided
		}
		v.path = v.path[:len(v.path)-1]
	}
	return engine.Impossible
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

// dead reports a position no play can clear. Every removal takes one
// card of rank r and one of 13-r, so the cards of each such pair of ranks
// must split into pairs that can be free together: two pyramid cards can't
// when one lies over the other, and on the last pass two waste cards never
// can (only the top one is ever usable, and it can't meet the one under
// it). Every other pair can meet: turning and redealing bring any talon
// card round, and the last pass still turns every stock card once.
func (v *solver) dead(n node) bool {
	pyr := v.pyramidByRank(n)
	last := n.pass == Passes
	// talon cards left by rank: waste (on the last pass, below the turned
	// card) and the rest.
	var waste, other [14]int
	wasteEnd := -1
	if last {
		wasteEnd = int(n.p)
		if n.turned {
			wasteEnd = v.below(n, wasteEnd)
		}
	}
	for i, c := range v.seq {
		if n.tgone&(1<<i) == 0 {
			if i < wasteEnd {
				waste[c.Rank()]++
			} else {
				other[c.Rank()]++
			}
		}
	}
	for r := engine.Ace; r <= 6; r++ {
		if !pairsUp(pyr[r], waste[r], other[r], pyr[13-r], waste[13-r], other[13-r]) {
			return true
		}
	}
	return false
}

// pairsUp reports whether the cards of two partner ranks split into pairs
// that can meet (see dead): pyramid slots a and b, waste cards wa and wb,
// other talon cards ta and tb. A rank has at most four cards.
func pairsUp(a uint32, wa, ta int, b uint32, wb, tb int) bool {
	na, nb := bits.OnesCount32(a), bits.OnesCount32(b)
	if wa == 0 && wb == 0 && na <= tb && nb <= ta {
		// Each pyramid card takes a talon card, and the talon cards left
		// over (as many on each side) pair among themselves.
		return na+ta == nb+tb
	}
	// Left side: up to 4 nodes, each with a bitmask of right nodes it can
	// meet. Right nodes are numbered: b's slots, then wb waste, then tb.
	var left [4]uint8
	var slotsB [4]int
	nb = 0
	for m := b; m != 0; m &= m - 1 {
		slotsB[nb] = bits.TrailingZeros32(m)
		nb++
	}
	nr := nb + wb + tb
	all := uint8(1)<<nr - 1
	talonB := all &^ (uint8(1)<<nb - 1)
	wasteB := (uint8(1)<<(nb+wb) - 1) &^ (uint8(1)<<nb - 1)
	nl := 0
	for m := a; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		e := talonB
		for k := range nb {
			j := slotsB[k]
			if cone[i]&(1<<j) == 0 && cone[j]&(1<<i) == 0 {
				e |= 1 << k
			}
		}
		left[nl] = e
		nl++
	}
	for range wa {
		left[nl] = all &^ wasteB
		nl++
	}
	for range ta {
		left[nl] = all
		nl++
	}
	if nl != nr {
		return false
	}
	return perfect(left[:nl], 0)
}

// perfect reports whether left nodes, each with its set of right nodes,
// can each take a different right node none of used has.
func perfect(left []uint8, used uint8) bool {
	if len(left) == 0 {
		return true
	}
	for m := left[0] &^ used; m != 0; m &= m - 1 {
		if perfect(left[1:], used|m&-m) {
			return true
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

// expand appends to v.kids, for every position reachable by tapping the
// stock alone, each removal there together with the taps before it.
// Searching over removals only is what makes the "earlier talon time
// dominates" rule of fresh sound: a dominated position is never the one
// that reaches its dominator.
//
// A King is taken as soon as it is free or turned and nothing else is
// tried: it goes alone, so going can only help. Removals of pyramid cards
// alone are tried before any tap: after a tap they would lead where the
// same removal before it led.
func (v *solver) expand(n node) {
	if v.dead(n) {
		return
	}
	// free[r]: the free pyramid slots of rank r.
	var free [14]uint32
	for i := range NumSlots {
		if n.gone&(1<<i) == 0 && n.gone&coverMask[i] == coverMask[i] {
			free[v.slots[i].Rank()] |= 1 << i
		}
	}
	if m := free[engine.King]; m != 0 {
		i := bits.TrailingZeros32(m)
		v.add(n, 0, engine.Action{Kind: engine.Auto, From: i}, 1<<i, 0)
		return
	}
	// Pyramid pairs first: they open the table.
	for r := engine.Ace; r <= 6; r++ {
		for a := free[r]; a != 0; a &= a - 1 {
			i := bits.TrailingZeros32(a)
			for b := free[13-r]; b != 0; b &= b - 1 {
				j := bits.TrailingZeros32(b)
				lo, hi := min(i, j), max(i, j)
				v.add(n, 0, engine.Action{Kind: engine.Move, From: lo, To: hi}, 1<<i|1<<j, 0)
			}
		}
	}

	// rem: the talon cards left, in turning order; k of them lie under p.
	var remBuf [24]int8
	rem := remBuf[:0]
	k := 0
	for i := range v.seq {
		if n.tgone&(1<<i) == 0 {
			rem = append(rem, int8(i))
			if i < int(n.p) {
				k++
			}
		}
	}
	// On the last pass the waste is a plain stack. A waste card under the
	// top comes free only once every card above it is gone, and the cards
	// under it only after it, so its partner must be a pyramid card, a
	// card still in the stock, or the turned card. stock and waste count
	// the ranks of each as the taps go on.
	var stock, waste [14]int8
	var pyr [14]bool
	trackWaste := false
	wasteCards := func(d node, k int) int { // cards under the turned card
		if d.turned {
			return k - 1
		}
		return k
	}
	if n.pass == Passes {
		trackWaste = true
		for i := range NumSlots {
			if n.gone&(1<<i) == 0 {
				pyr[v.slots[i].Rank()] = true
			}
		}
		w := wasteCards(n, k)
		for x, i := range rem {
			if x < w {
				waste[v.seq[i].Rank()]++
			} else if x >= k {
				stock[v.seq[i].Rank()]++
			}
		}
	}
	d := n
	for draws := int8(0); ; draws++ {
		var turned engine.Rank
		if d.turned {
			turned = v.seq[rem[k-1]].Rank()
		}
		if trackWaste {
			for r := engine.Ace; r < engine.King; r++ {
				if waste[r] > 0 && !pyr[13-r] && stock[13-r] == 0 && turned != 13-r {
					return
				}
			}
		}
		// The usable talon cards: the turned card and the waste top.
		top := -1
		if d.turned && k >= 2 {
			top = int(rem[k-2])
		} else if !d.turned && k >= 1 {
			top = int(rem[k-1])
		}
		if d.turned {
			t := int(rem[k-1])
			if turned == engine.King {
				v.add(d, draws, engine.Action{Kind: engine.Auto, From: TurnedPile}, 0, 1<<t)
				return
			}
			for m := free[13-turned]; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				v.add(d, draws, engine.Action{Kind: engine.Move, From: i, To: TurnedPile}, 1<<i, 1<<t)
			}
		}
		if top >= 0 {
			w := v.seq[top].Rank()
			if w == engine.King {
				v.add(d, draws, engine.Action{Kind: engine.Auto, From: WastePile}, 0, 1<<top)
				return
			}
			for m := free[13-w]; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				v.add(d, draws, engine.Action{Kind: engine.Move, From: i, To: WastePile}, 1<<i, 1<<top)
			}
			if d.turned && turned+w == 13 {
				v.add(d, draws, engine.Action{Kind: engine.Move, From: TurnedPile, To: WastePile}, 0, 1<<rem[k-1]|1<<top)
			}
		}
		// Tap: turn the next card, or redeal.
		switch {
		case k < len(rem):
			if trackWaste {
				if d.turned {
					waste[turned]++
				}
				stock[v.seq[rem[k]].Rank()]--
			}
			d.p, d.turned = rem[k]+1, true
			k++
		case d.pass < Passes && k > 0:
			d.p, d.turned, d.pass = 0, false, d.pass+1
			k = 0
			if d.pass == Passes {
				trackWaste = true
				for i := range NumSlots {
					if n.gone&(1<<i) == 0 {
						pyr[v.slots[i].Rank()] = true
					}
				}
				for _, i := range rem {
					stock[v.seq[i].Rank()]++
				}
			}
		default:
			return
		}
	}
}

// add appends the move of draws taps then action a, which removes the
// pyramid slots gone and the talon cards tgone from d, if the position it
// leads to is fresh.
func (v *solver) add(d node, draws int8, a engine.Action, gone, tgone uint32) {
	m := d
	m.gone |= gone
	if tgone != 0 {
		m.tgone |= tgone
		if d.turned && tgone&(1<<v.below(d, int(d.p))) != 0 {
			m.turned = false
		}
	}
	m = v.canonical(m)
	if v.fresh(m) {
		v.kids = append(v.kids, kid{m, draws, a})
	}
}
