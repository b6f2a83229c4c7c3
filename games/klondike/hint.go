package klondike

import (
	"cmp"
	"fmt"
	"slices"

	"sshuffle/engine"
)

type hintCand struct {
	prio int
	down int // face-down cards in the source column: digging the deepest first
	a    engine.Action
	why  string
}

func (g *Game) dest(to int) string {
	p := g.st.piles[to]
	if len(p) == 0 {
		return "to the empty column"
	}
	return "onto " + p[len(p)-1].String()
}

// Hint suggests a move using only what the player has seen: face-up
// tableau and foundation cards, the waste, and stock cards only once all of
// them have been turned before. In order of preference: a move that turns
// up a face-down card (to a foundation first, then onto a column, from the
// column with most cards still face down), a foundation move, a waste card
// onto a column, a run move that frees a card for a foundation, a move that
// empties a column when a King is waiting for it, and last turning the
// stock. It gives nothing when none of these helps.
func (g *Game) Hint() (engine.Action, string, bool) {
	var cs []hintCand
	mv := func(from, idx, to int) engine.Action {
		return engine.Action{Kind: engine.Move, From: from, Index: idx, To: to}
	}
	kingWaiting := false
	if w := g.st.piles[PileWaste]; len(w) > 0 && w[len(w)-1].Rank() == engine.King {
		kingWaiting = true
	}
	for from := PileTableau0; from < NumPiles; from++ {
		p, d := g.st.piles[from], g.st.down[from]
		if d > 0 && p[d].Rank() == engine.King {
			if _, err := g.source(from, d); err == nil {
				kingWaiting = true
			}
		}
	}
	if w := g.st.piles[PileWaste]; len(w) > 0 {
		c := w[len(w)-1]
		if f := g.foundationFor(c); f >= 0 {
			cs = append(cs, hintCand{2, 0, mv(PileWaste, len(w)-1, f), fmt.Sprintf("Move %v from the waste to its foundation", c)})
		}
		for to := PileTableau0; to < NumPiles; to++ {
			if g.fitsTableau(c, to) {
				cs = append(cs, hintCand{3, 0, mv(PileWaste, len(w)-1, to), fmt.Sprintf("Move %v from the waste %s", c, g.dest(to))})
			}
		}
	}
	for from := PileTableau0; from < NumPiles; from++ {
		p, d := g.st.piles[from], g.st.down[from]
		if len(p) == 0 {
			continue
		}
		top := len(p) - 1
		if f := g.foundationFor(p[top]); f >= 0 {
			if top == d && d > 0 {
				cs = append(cs, hintCand{0, d, mv(from, top, f), fmt.Sprintf("Move %v to its foundation to turn up a card", p[top])})
			} else {
				cs = append(cs, hintCand{2, d, mv(from, top, f), fmt.Sprintf("Move %v to its foundation", p[top])})
			}
		}
		for idx := d; idx < len(p); idx++ {
			if _, err := g.source(from, idx); err != nil {
				continue
			}
			for to := PileTableau0; to < NumPiles; to++ {
				if to == from || !g.fitsTableau(p[idx], to) {
					continue
				}
				// Filling an empty column is worse than building on a
				// card: it spends the column.
				empty := 0
				if len(g.st.piles[to]) == 0 {
					empty = 1
				}
				switch {
				case idx == d && d > 0:
					cs = append(cs, hintCand{1, 2*d - empty, mv(from, idx, to), fmt.Sprintf("Move %v %s to turn up a card", p[idx], g.dest(to))})
				case idx > d:
					if g.foundationFor(p[idx-1]) >= 0 {
						cs = append(cs, hintCand{4, d, mv(from, idx, to), fmt.Sprintf("Move %v %s so %v can go to its foundation", p[idx], g.dest(to), p[idx-1])})
					}
				case idx == 0 && p[0].Rank() != engine.King && kingWaiting:
					cs = append(cs, hintCand{5, 0, mv(from, idx, to), fmt.Sprintf("Move %v %s to empty a column for a King", p[idx], g.dest(to))})
				}
			}
		}
	}
	if len(cs) > 0 {
		best := slices.MinFunc(cs, func(a, b hintCand) int {
			if c := cmp.Compare(a.prio, b.prio); c != 0 {
				return c
			}
			return cmp.Compare(b.down, a.down)
		})
		return best.a, best.why, true
	}
	draw := engine.Action{Kind: engine.Draw}
	stock, waste := g.st.piles[PileStock], g.st.piles[PileWaste]
	allSeen := true
	for _, c := range stock {
		allSeen = allSeen && g.seen[c]
	}
	if !allSeen {
		if g.draw == 1 {
			return draw, "Turn a card from the stock", true
		}
		return draw, "Turn cards from the stock", true
	}
	if len(stock)+len(waste) == 0 {
		return engine.Action{}, "", false
	}
	useful := false
	for _, c := range g.reachable() {
		if g.foundationFor(c) >= 0 || g.fitsSomeColumn(c, -1) {
			useful = true
		}
	}
	if !useful {
		return engine.Action{}, "", false
	}
	if len(stock) == 0 {
		return draw, "Turn the waste over to go through the stock again", true
	}
	return draw, "Turn the stock to reach a card you can play", true
}
