package klondike

import "sshuffle/engine"

// reachable lists the stock and waste cards that can become the top waste
// card by cycling the stock without playing anything: in Draw 1 every one of
// them; in Draw 3 the current top and the last card of each packet, for the
// rest of this pass and for one whole pass after turning the waste over
// (every later pass repeats that one).
func (g *Game) reachable() []engine.Card {
	stock, waste := g.st.piles[PileStock], g.st.piles[PileWaste]
	if g.draw == 1 {
		out := append([]engine.Card(nil), waste...)
		return append(out, stock...)
	}
	var out []engine.Card
	if len(waste) > 0 {
		out = append(out, waste[len(waste)-1])
	}
	order := make([]engine.Card, 0, len(stock)+len(waste))
	for i := len(stock) - 1; i >= 0; i-- {
		order = append(order, stock[i])
	}
	tops := func(seq []engine.Card) {
		for i := 0; i < len(seq); i += g.draw {
			out = append(out, seq[min(i+g.draw, len(seq))-1])
		}
	}
	tops(order)
	tops(append(append([]engine.Card(nil), waste...), order...))
	return out
}

// Stuck reports that no move can change the position in a way that matters.
// A move counts when it is one of:
//   - a card the stock can bring to the waste top (see reachable) going to a
//     foundation or a column;
//   - a column's top card going to a foundation;
//   - a run moving between columns that turns up a face-down card, empties a
//     column (a non-King run from the bottom), or uncovers a card that can
//     then go to a foundation;
//   - a foundation card coming down where a card that would count by the
//     rules above (a reachable stock card, or a run that turns up a card or
//     empties a column) can then go on it.
//
// Everything else is pointless: cycling the stock, a King-led run from one
// empty column to another, or a run swapped between two columns whose cards
// are equal for building (same rank and colour) when nothing new can then
// reach a foundation.
func (g *Game) Stuck() bool {
	return !g.Won() && !g.anyUseful()
}

func (g *Game) fitsSomeColumn(c engine.Card, except int) bool {
	for to := PileTableau0; to < NumPiles; to++ {
		if to != except && g.fitsTableau(c, to) {
			return true
		}
	}
	return false
}

// usefulRun says whether moving the run from idx of column from would turn
// up a card, empty the column, or free a card for a foundation.
func (g *Game) usefulRun(from, idx int) bool {
	p, d := g.st.piles[from], g.st.down[from]
	switch {
	case idx == d && d > 0:
		return true
	case idx == 0:
		return p[0].Rank() != engine.King
	case idx > d:
		return g.foundationFor(p[idx-1]) >= 0
	}
	return false
}

func (g *Game) anyUseful() bool {
	reach := g.reachable()
	for _, c := range reach {
		if g.foundationFor(c) >= 0 || g.fitsSomeColumn(c, -1) {
			return true
		}
	}
	for from := PileTableau0; from < NumPiles; from++ {
		p := g.st.piles[from]
		if len(p) == 0 {
			continue
		}
		if g.foundationFor(p[len(p)-1]) >= 0 {
			return true
		}
		for idx := g.st.down[from]; idx < len(p); idx++ {
			if _, err := g.source(from, idx); err != nil || !g.usefulRun(from, idx) {
				continue
			}
			if g.fitsSomeColumn(p[idx], from) {
				return true
			}
		}
	}
	for f := PileFoundation0; f < PileTableau0; f++ {
		fp := g.st.piles[f]
		if len(fp) == 0 {
			continue
		}
		top := fp[len(fp)-1]
		if !g.fitsSomeColumn(top, -1) || top.Rank() == engine.Ace {
			continue
		}
		fits := func(c engine.Card) bool { return c.Rank()+1 == top.Rank() && c.Red() != top.Red() }
		for _, c := range reach {
			if fits(c) {
				return true
			}
		}
		for from := PileTableau0; from < NumPiles; from++ {
			p, d := g.st.piles[from], g.st.down[from]
			for idx := d; idx < len(p); idx++ {
				if (idx == d && d > 0 || idx == 0) && fits(p[idx]) {
					if _, err := g.source(from, idx); err == nil {
						return true
					}
				}
			}
		}
	}
	return false
}
