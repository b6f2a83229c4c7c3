package freecell

import (
	"sync"

	"sshuffle/engine"
)

// The solver is a depth-first search (dfs.go), run as a portfolio of
// pruned stages with different weights and beams, then once complete. A
// search move is one player move (a single card, or a run the supermove
// rule allows); after it every card the strong safe rule allows goes up
// at once, which is never a mistake and removes most of the branching.
// Positions are keyed with the free cells as a set and the columns as a
// multiset, since neither the order of the cells nor the order of the
// columns changes what can happen. Every one-card move is generated (up
// to those symmetries) in the complete stage, so its exhaustion proves a
// deal impossible. The winning line is then shortened (dfs.shorten).

// smove is a search move in pile numbering (see the package comment).
type smove struct{ from, index, to uint8 }

// Solve searches deal spec from the start, with the default settings
// (automatic moves on), within maxNodes positions. The actions replay
// through New(spec) and Do to a win. A spec New rejects is Undecided with
// no nodes searched.
func Solve(spec engine.Spec, maxNodes int) engine.Result[engine.Action] {
	g, err := New(spec)
	if err != nil {
		return engine.Result[engine.Action]{Outcome: engine.Undecided}
	}
	return SolveGame(g, maxNodes)
}

// SolveGame searches from g's current position; the actions replay through
// g.Do (with g's settings) to a win. g is not changed. Foundation cards
// are never brought back in the search, so "impossible" is exact for the
// standard rules.
func SolveGame(g *Game, maxNodes int) engine.Result[engine.Action] {
	start := g.b
	start.autoAll((*board).safeStrong)
	res := search(start, maxNodes)
	out := engine.Result[engine.Action]{Outcome: res.Outcome, Nodes: res.Nodes}
	if res.Outcome != engine.Solved {
		return out
	}
	out.Moves = expandMoves(g, res.Moves)
	return out
}

func search(start board, maxNodes int) engine.Result[smove] {
	res, _ := searchStage(start, maxNodes)
	return res
}

// searchStage is search, also saying which stage ended it (len(dstages)
// for the complete one), for measuring the portfolio.
func searchStage(start board, maxNodes int) (engine.Result[smove], int) {
	d := dfsPool.Get().(*dfs)
	defer dfsPool.Put(d)
	return searchStageOn(d, start, maxNodes)
}

func searchStageOn(d *dfs, start board, maxNodes int) (engine.Result[smove], int) {
	total := 0
	for si, st := range dstages {
		budget := min(maxNodes-total, st.nodes)
		d.prune, d.beam = true, st.beam
		d.fitsToCell, d.strict = st.fitsToCell, si == 0
		res := d.run(start, st.w, budget)
		total += res.Nodes
		if res.Outcome == engine.Solved {
			res.Nodes = total
			res.Moves = d.shorten(start, res.Moves, true)
			return res, si
		}
		if total >= maxNodes {
			return engine.Result[smove]{Outcome: engine.Undecided, Nodes: total}, si
		}
	}
	// The last stage is complete: no move is left out and every child
	// is tried, so it stops only at a win, at the budget, or when every
	// position reachable from start has been expanded; Impossible is
	// then exact. A position is skipped only when its key is already in
	// the set, that is when it was expanded before, is on the path, or
	// waits among the children of a position on the path (all of which
	// are tried before the search returns past it), and a position's
	// future does not depend on how it was reached. (Keys are 64-bit
	// hashes: two positions sharing one would be taken for one, a chance
	// of about n²/2⁶⁵ for n positions, 10⁻⁹ at 150,000.)
	d.prune, d.beam, d.fitsToCell, d.strict = false, 0, false, false
	res := d.run(start, lastStage, maxNodes-total)
	res.Nodes += total
	if res.Outcome == engine.Solved {
		res.Moves = d.shorten(start, res.Moves, false)
	}
	return res, len(dstages)
}

var dfsPool = sync.Pool{New: func() any { return new(dfs) }}

// dstages are the pruned stages, a portfolio tried in turn: different
// weights and beams go wrong on different deals, and a small budget for
// each loses little, since a pruned search that finds a line finds it
// early. Chosen on deals 1-32000 (every 8th, and the deals the first
// stages miss) to make the fewest positions in all, counting a deal that
// reaches the last stage heavily; the budgets after the first stage by
// coordinate descent (each halved, doubled or the stage dropped) on the
// deals the first stage misses, with the pruning of leftOutOfCell
// (dfs.go).
var dstages = []struct {
	w          weights
	nodes      int
	beam       int
	fitsToCell bool // see dfs.fitsToCell (and the first stage alone is dfs.strict)
}{
	{wS, 3_000, 2, false},
	{wT, 2_000, 3, true},
	{wA, 10_000, 4, false},
	{wF, 2_500, 2, false},
	{wH, 5_000, 2, false},
	{wB, 10_000, 4, false},
}

// The weight sets of the stages.
var (
	// wS is tuned for the first stage (strict, dfs.strict) by coordinate
	// descent on every 8th deal of 1-32000, with the pruning of
	// leftOutOfCell (dfs.go), and checked on the deals at other offsets.
	// Its wBase bonus makes that stage's search smaller.
	wS = weights{8, 1, 8, 5, 2, 2, 0, 1}
	// wT is wB tuned for the second stage (coordinate descent on the
	// deals the first stage misses).
	wT = weights{1, 2, 3, 3}
	wA = weights{2, 2, 5, 6, 2, 2, 1}
	wB = weights{1, 2, 3, 3, 1}
	wF = weights{3, 4, 3, 3, 1}
	wH = weights{2, 2, 4, 4, 2, 2, 1}
	// lastStage weighs the complete search's children.
	lastStage = wA
)

// expandMoves turns search moves into the actions a game with g's settings
// needs: each move, then the strong-safe foundation moves the game does not
// make by itself, one action each.
func expandMoves(g *Game, moves []smove) []engine.Action {
	sim := &Game{spec: g.spec, set: g.set, b: g.b}
	// Each card goes home by an automatic move at most once, so this is
	// the most the line can take: one allocation, never grown.
	out := make([]engine.Action, 0, len(moves)+52)
	// The board autoStep looks at reaches the safe check through a func
	// value, so it lives on the heap: one for the whole line, not one a
	// step.
	probe := new(board)
	flush := func() {
		for {
			*probe = sim.b
			s, ok := probe.autoStep((*board).safeStrong)
			if !ok {
				return
			}
			a := engine.Action{Kind: engine.Move, From: s.from, To: firstFound}
			if s.from >= firstCol {
				a.Index = int(sim.b.n[s.from-firstCol]) - 1
			}
			if !sim.doQuiet(a) {
				return // cannot happen: the move was just found legal
			}
			out = append(out, a)
		}
	}
	flush()
	for _, m := range moves {
		a := engine.Action{Kind: engine.Move, From: int(m.from), Index: int(m.index), To: int(m.to)}
		if !sim.doQuiet(a) {
			return out
		}
		out = append(out, a)
		flush()
	}
	return out
}

// doQuiet is Do for a game nobody plays on: the same move and automatic
// moves, without the undo record (a full board a move) or the plan. A
// profile of Solve over deals 1-32000 had expandMoves at 12%, most of it
// in Do.
func (g *Game) doQuiet(a engine.Action) bool {
	m, err := resolveAction(&g.b, a, g.set)
	if err != nil {
		return false
	}
	apply(&g.b, m)
	if g.set.AutoFoundation {
		g.b.autoAll((*board).safeSimple)
	}
	return true
}

// restCost is the part of cost that does not belong to one column.
func restCost(b *board, w weights) int {
	return (52-b.foundCount())*w[wLeft] + (numCells-b.freeCells())*w[wCell] - b.emptyCols()*w[wEmpty]
}

// colCost is column i's share of cost.
func colCost(b *board, i int, w weights) int {
	h := 0
	minRank := engine.Rank(14)
	n := int(b.n[i])
	prev := engine.NoCard
	// base: the cards so far lie in one run from a king at the bottom.
	base := n > 0 && b.cols[i][0].Rank() == engine.King
	for p, c := range b.cols[i][:n] {
		r := c.Rank()
		if r > minRank {
			h += w[wBlock]
		} else {
			minRank = r
		}
		switch uint8(r) - b.found[c.Suit()] {
		case 1:
			h += (n - 1 - p) * w[wDepth]
		case 2:
			h += (n - 1 - p) * w[wDepth2]
		}
		if p > 0 && !fits(c, prev) {
			h += w[wSeq]
			base = false
		}
		if base {
			h -= w[wBase]
		}
		prev = c
	}
	return h
}

// weights of the cost terms, indexed by the constants below.
type weights [8]int

const (
	wLeft   = iota // cards not on the foundations
	wBlock         // cards lying on a lower card of their column
	wCell          // occupied cells
	wEmpty         // empty columns (a bonus)
	wDepth         // cards over the next card of a foundation
	wSeq           // cards not on their parent (one rank up, other colour)
	wDepth2        // cards over the card after that
	wBase          // cards in one run from a king at the bottom of a column (a bonus)
)
