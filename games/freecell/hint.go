package freecell

import (
	"fmt"

	"sshuffle/engine"
)

// HintBudget is the solver's node budget for one hint.
const HintBudget = 400_000

// Hint asks the solver for the next move from the current position. The
// plan is kept while the player follows it, so later hints are free.
func (g *Game) Hint() (engine.Action, string, bool) {
	if g.b.won() {
		return engine.Action{}, "", false
	}
	if len(g.plan) == 0 || g.planAt != g.b {
		r := SolveGame(g, HintBudget)
		if r.Outcome != engine.Solved || len(r.Moves) == 0 {
			g.plan = nil
			return engine.Action{}, "", false
		}
		g.plan, g.planAt = r.Moves, g.b
	}
	a := g.plan[0]
	why, ok := describe(&g.b, a, g.set)
	return a, why, ok
}

// describe says an action in words: "Move 5♥ to a free cell".
func describe(b *board, a engine.Action, set Settings) (string, bool) {
	m, err := resolveAction(b, a, set)
	if err != nil {
		return "", false
	}
	var lead engine.Card
	switch {
	case m.from < firstFound:
		lead = b.cells[m.from]
	case m.from < firstCol:
		s := m.from - firstFound
		lead = engine.NewCard(engine.Rank(b.found[s]), engine.Suit(s))
	default:
		lead = b.cols[m.from-firstCol][m.index]
	}
	what := lead.String()
	if m.count > 1 {
		what = fmt.Sprintf("%v and the %s on it", lead, plural(m.count-1, "card", "cards"))
	}
	switch {
	case m.to < firstFound:
		return "Move " + what + " to a free cell", true
	case m.to < firstCol:
		return "Move " + what + " to the foundation", true
	}
	if b.n[m.to-firstCol] == 0 {
		return "Move " + what + " to an empty column", true
	}
	return fmt.Sprintf("Move %s onto %v", what, b.top(m.to-firstCol)), true
}
