package freecell

import (
	"sync"

	"sshuffle/engine"
)

// The solver is greedy best-first search (engine.Search's, specialised in
// search.go), restarted with several weight sets. A search move
// is one player move (a single card, or a run the supermove rule allows);
// after it every card the strong safe rule allows goes up at once, which
// is never a mistake and removes most of the branching. Positions are keyed
// with the free cells as a set and the columns as a multiset, since neither
// the order of the cells nor the order of the columns changes what can
// happen. Every one-card move is generated (up to those symmetries), so an
// exhausted search proves a deal impossible. Solutions are not short.

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

// stages are the restarts of the search: a greedy search that goes wrong
// early stays wrong, and different weights go wrong on different deals, so
// each set gets a small share of the budget before the last set gets the
// rest. An exhausted stage proves the deal impossible whatever its weights.
var stages = []struct {
	w     weights
	nodes int
}{
	{weights{2, 2, 5, 6, 2, 2, 1}, 10_000},
	{weights{1, 2, 3, 3, 1}, 6_000},
	{weights{1, 2, 2, 2, 1}, 6_000},
	{weights{1, 3, 1, 2, 1}, 6_000},
	{weights{2, 2, 1, 1, 1}, 6_000},
	{weights{1, 2, 2, 2, 1, 1}, 6_000},
	{weights{3, 4, 3, 3, 1}, 6_000},
	{weights{1, 2, 2, 4, 1}, 100_000},
	{weights{2, 2, 4, 4, 2, 2, 1}, 0}, // the rest of the budget
}

func search(start board, maxNodes int) engine.Result[smove] {
	d := dfsPool.Get().(*dfs)
	defer dfsPool.Put(d)
	total := 0
	for _, st := range dstages {
		budget := min(maxNodes-total, st.nodes)
		d.prune, d.beam = true, st.beam
		res := d.run(start, st.w, budget)
		total += res.Nodes
		if res.Outcome == engine.Solved {
			res.Nodes = total
			res.Moves = d.shorten(start, res.Moves)
			return res
		}
		if total >= maxNodes {
			return engine.Result[smove]{Outcome: engine.Undecided, Nodes: total}
		}
	}
	res := searchBF(start, maxNodes-total)
	res.Nodes += total
	return res
}

var dfsPool = sync.Pool{New: func() any { return new(dfs) }}

var dstages = []struct {
	w     weights
	nodes int
	beam  int
}{
	{weights{2, 2, 5, 6, 2, 2, 1}, 3_000, 2},
	{weights{1, 2, 3, 3, 1}, 3_000, 2},
	{weights{1, 2, 2, 2, 1}, 3_000, 2},
	// Wider and longer: 13996, the slowest deal of 1-32000 for the
	// best-first search (1.6 million positions), is won here in 11 thousand.
	{weights{1, 2, 3, 3, 1}, 20_000, 3},
}

func searchBF(start board, maxNodes int) engine.Result[smove] {
	s := searchers.Get().(*searcher)
	defer searchers.Put(s)
	total := 0
	for i, st := range stages {
		budget := maxNodes - total
		if i < len(stages)-1 {
			budget = min(budget, st.nodes)
		}
		s.w = st.w
		res := s.run(start, budget)
		total += res.Nodes
		res.Nodes = total
		if res.Outcome != engine.Undecided || total >= maxNodes || i == len(stages)-1 {
			return res
		}
	}
	panic("no stages")
}

// searchers keeps the searchers' slices from one search to the next.
var searchers = sync.Pool{New: func() any { return new(searcher) }}

// expandMoves turns search moves into the actions a game with g's settings
// needs: each move, then the strong-safe foundation moves the game does not
// make by itself, one action each.
func expandMoves(g *Game, moves []smove) []engine.Action {
	sim := &Game{spec: g.spec, set: g.set, b: g.b}
	var out []engine.Action
	flush := func() {
		for {
			probe := sim.b
			s, ok := probe.autoStep((*board).safeStrong)
			if !ok {
				return
			}
			a := engine.Action{Kind: engine.Move, From: s.from, To: firstFound}
			if s.from >= firstCol {
				a.Index = int(sim.b.n[s.from-firstCol]) - 1
			}
			if sim.Do(a) != nil {
				return // cannot happen: the move was just found legal
			}
			out = append(out, a)
		}
	}
	flush()
	for _, m := range moves {
		a := engine.Action{Kind: engine.Move, From: int(m.from), Index: int(m.index), To: int(m.to)}
		if sim.Do(a) != nil {
			return out
		}
		out = append(out, a)
		flush()
	}
	return out
}

// expand yields every move worth trying, foundation moves first, then
// moves onto cards, then moves into empty columns, then into a cell.
// Equivalent destinations are tried once: the first empty cell and the
// first empty column stand for all of them.
func (s *searcher) expand() {
	b := &s.cur
	free := b.freeCells()
	empty := b.emptyCols()
	firstEmpty := -1
	for i := range numCols {
		if b.n[i] == 0 {
			firstEmpty = i
			break
		}
	}
	firstCell := -1
	for i, c := range b.cells {
		if c == engine.NoCard {
			firstCell = i
			break
		}
	}
	// To the foundations.
	for i, c := range b.cells {
		if c != engine.NoCard && b.canFound(c) {
			s.emit(move{from: i, count: 1, to: firstFound + int(c.Suit())})
		}
	}
	for i := range numCols {
		if c := b.top(i); c != engine.NoCard && b.canFound(c) {
			s.emit(move{from: firstCol + i, index: int(b.n[i]) - 1, count: 1, to: firstFound + int(c.Suit())})
		}
	}
	// Runs onto cards.
	limit := capacity(free, empty)
	for i := range numCols {
		n := int(b.n[i])
		if n == 0 {
			continue
		}
		start := b.runStart(i)
		for j := range numCols {
			if j == i || b.n[j] == 0 {
				continue
			}
			d := b.top(j)
			need := int(d.Rank()) - 1
			// The card of rank need in the run, if any.
			k := n - 1 - (need - int(b.cols[i][n-1].Rank()))
			if k < start || k >= n || n-k > limit {
				continue
			}
			if fits(b.cols[i][k], d) {
				s.emit(move{from: firstCol + i, index: k, count: n - k, to: firstCol + j})
			}
		}
	}
	for i, c := range b.cells {
		if c == engine.NoCard {
			continue
		}
		for j := range numCols {
			if b.n[j] > 0 && fits(c, b.top(j)) {
				s.emit(move{from: i, count: 1, to: firstCol + j})
			}
		}
	}
	// Into an empty column: any length the rule allows, longest first,
	// except a whole column (which changes nothing).
	if firstEmpty >= 0 {
		for i, c := range b.cells {
			if c != engine.NoCard {
				s.emit(move{from: i, count: 1, to: firstCol + firstEmpty})
			}
		}
		lim := capacity(free, empty-1)
		for i := range numCols {
			n := int(b.n[i])
			if n == 0 {
				continue
			}
			start := max(b.runStart(i), n-lim)
			if start == 0 {
				start = 1
			}
			for k := start; k < n; k++ {
				s.emit(move{from: firstCol + i, index: k, count: n - k, to: firstCol + firstEmpty})
			}
		}
	}
	// Into a cell.
	if firstCell >= 0 {
		for i := range numCols {
			if n := int(b.n[i]); n > 0 {
				s.emit(move{from: firstCol + i, index: n - 1, count: 1, to: firstCell})
			}
		}
	}
}

// cost guesses how far a position is from won: lower is searched first.
// Every card in play needs a move to the foundation; a card lying on a
// lower card of its column needs at least one more; occupied cells and
// filled columns take away room to move.
func cost(b *board, w weights) int {
	h := 0
	for i := range numCols {
		h += colCost(b, i, w)
	}
	return h + restCost(b, w)
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
		}
		prev = c
	}
	return h
}

// weights of the cost terms, indexed by the constants below.
type weights [7]int

const (
	wLeft   = iota // cards not on the foundations
	wBlock         // cards lying on a lower card of their column
	wCell          // occupied cells
	wEmpty         // empty columns (a bonus)
	wDepth         // cards over the next card of a foundation
	wSeq           // cards not on their parent (one rank up, other colour)
	wDepth2        // cards over the card after that
)
