package spider

import "sshuffle/engine"

// A macro move carries a run of several one-suit groups, each one lower
// than the group under it but of another suit, to a column in one step,
// using empty columns to hold groups on the way: with m empty columns
// free, 2^m groups can go (half of them to an empty column by the same
// means, the other half to the target, then the first half after them).
// Played one group at a time the carry passes through positions that look
// worse (groups parked in empty columns), and a search that goes by cost
// rarely gets across; as one step it is a single position. The solution
// lists the single moves.
const macroMove smove = 1 << 30

// expandMacros yields the macro moves of column from (cards cs, its top
// one-suit group starting at st) when the table has empties empty columns.
func expandMacros(e *expansion, from int, cs []engine.Card, st, empties int) {
	p := e.p
	d := int(p.down[from])
	groups := 1 // groups from b to the top
	for b := st; b > d && cs[b-1].Rank() == cs[b].Rank()+1; {
		// b-1 ends the next group down; find its start.
		b--
		for b > d && follows(cs[b-1], cs[b]) {
			b--
		}
		groups++
		lead := cs[b]
		// Below b: a face-down card, a card that is not one higher, or
		// nothing. Only from there does a move change what is under
		// the run; from inside the run (on a card one higher of another
		// suit) it may only go onto its own suit.
		inside := b > d && cs[b-1].Rank() == lead.Rank()+1
		triedEmpty := false
		for to := 0; to < numCols; to++ {
			if to == from {
				continue
			}
			t := e.tops[to]
			free := empties
			if t == engine.NoCard {
				if triedEmpty || b == 0 {
					continue
				}
				triedEmpty = true
				free--
			} else if t.Rank() != lead.Rank()+1 || (inside && t.Suit() != lead.Suit()) {
				continue
			}
			if free >= 30 || groups > 1<<free {
				continue
			}
			e.move(from, b, to, macroMove|smove(from|b<<4|to<<12))
		}
	}
}

// actions lists the solver's moves from g's position as single moves.
func (g *Game) actions(ms []smove) []engine.Action {
	if len(ms) == 0 {
		return nil
	}
	p := g.p
	out := make([]engine.Action, 0, len(ms))
	for _, m := range ms {
		switch {
		case m == dealMove:
			r := numRows - int(p.rows)
			p.deal(g.stock[r*numCols : r*numCols+numCols])
			out = append(out, m.action())
		case m&macroMove != 0:
			from, i, to := int(m&15), int(m>>4&255), int(m>>12&15)
			groups := 0
			cs := p.col(from)
			for j := i; j < len(cs); j++ {
				if j == i || !follows(cs[j-1], cs[j]) {
					groups++
				}
			}
			var free []int
			for c := 0; c < numCols; c++ {
				if c != to && c != from && p.n[c] == 0 {
					free = append(free, c)
				}
			}
			out = carry(&p, from, groups, to, free, out)
		default:
			a := m.action()
			p.move(a.From-PileColumn, a.Index, a.To-PileColumn)
			out = append(out, a)
		}
	}
	return out
}

// carry moves the top k one-suit groups of column from to column to with
// the empty columns free, one group at a time, and appends the moves.
func carry(p *pos, from, k, to int, free []int, out []engine.Action) []engine.Action {
	if k == 1 {
		i := p.runStart(from)
		p.move(from, i, to)
		return append(out, mv0(from, i, to))
	}
	h := k / 2
	e := free[0]
	out = carry(p, from, h, e, free[1:], out)
	out = carry(p, from, k-h, to, free[1:], out)
	return carry(p, e, h, to, free[1:], out)
}
