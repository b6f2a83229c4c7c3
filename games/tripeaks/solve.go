package tripeaks

import "sshuffle/engine"

// The solver sees every card ("thoughtful" TriPeaks). A position is the set
// of slots played, how many stock cards remain and the waste top: the rest of
// the waste never matters again, so positions reached by different orders
// merge in the transposition table. The key holds all three exactly.
type node struct {
	gone  uint32 // bit i: slot i played
	stock int8   // cards left in the stock
	top   engine.Card
}

const allGone = 1<<NumSlots - 1

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
	start := node{stock: int8(s.nStock), top: s.wasteTop()}
	for i := range NumSlots {
		if s.slots[i] == engine.NoCard {
			start.gone |= 1 << i
		}
	}
	slots := s.slots
	stock := s.stock
	p := engine.Problem[node, engine.Action]{
		Key: func(n node) uint64 {
			return uint64(n.gone) | uint64(n.stock)<<28 | uint64(n.top)<<33
		},
		Won: func(n node) bool { return n.gone == allGone },
		Expand: func(n node, yield func(engine.Action, node)) {
			// Plays that turn cards up first: they open the most options.
			var later []int
			for i := range NumSlots {
				if n.gone&(1<<i) != 0 || n.gone&coverMask[i] != coverMask[i] || !fits(slots[i], n.top) {
					continue
				}
				if turnsUpMask(n.gone, i) == 0 {
					later = append(later, i)
					continue
				}
				yield(engine.Action{Kind: engine.Move, From: i, To: WastePile},
					node{gone: n.gone | 1<<i, stock: n.stock, top: slots[i]})
			}
			for _, i := range later {
				yield(engine.Action{Kind: engine.Move, From: i, To: WastePile},
					node{gone: n.gone | 1<<i, stock: n.stock, top: slots[i]})
			}
			if n.stock > 0 {
				yield(engine.Action{Kind: engine.Draw, From: StockPile},
					node{gone: n.gone, stock: n.stock - 1, top: stock[n.stock-1]})
			}
		},
	}
	if start.gone == allGone {
		return engine.Result[engine.Action]{Outcome: engine.Solved, Nodes: 1}
	}
	return engine.Search(p, start, maxNodes)
}

// turnsUpMask counts the cards that playing slot i turns up.
func turnsUpMask(gone uint32, i int) int {
	n := 0
	after := gone | 1<<i
	for _, u := range coveredBy[i] {
		if after&coverMask[u] == coverMask[u] {
			n++
		}
	}
	return n
}
