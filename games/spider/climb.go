package spider

import (
	"slices"

	"sshuffle/engine"
)

// climb is a search for four suits, where best-first search over single
// moves drowns: most moves only shuffle groups between equal places, so
// the cost has long plateaus and the open list fills with millions of
// them. climb instead steps from one position to a strictly cheaper one:
// from the position it has committed to, a breadth-first search over
// tableau moves (no deals) finds the nearest positions that cost less, and
// the search goes on from the cheapest of them. When no cheaper position
// is within reach, it deals a row from the cheapest position of the
// plateau it has seen. Each committed position keeps its other cheaper
// positions (and a row dealt at once) as alternatives, tried depth first
// when a line runs dry; a position committed to once is never searched
// again.
type climber struct {
	w      weights
	row    func(*pos) []engine.Card
	budget int // positions it may make
	nodes  int // positions made

	// The breadth-first search's nodes and seen keys, reused by each
	// step.
	bfs  []bfsNode
	seen stampSet

	done engine.SeenSet // positions committed to

	scratch spos // expand's child
}

type bfsNode struct {
	p      spos
	parent int32
	m      smove
	depth  int16
}

// step is a position the search may commit to, with the moves that reach
// it from its parent.
type step struct {
	p     spos
	moves []smove
	cost  int
}

type climbFrame struct {
	moves []smove // from the parent frame's position to this one
	next  []step
	i     int
}

// Most positions have a cheaper one within a few moves; a plateau that
// takes more than this many positions to cross is left for another line.
const (
	climbReach = 40_000
	climbKeep  = 6 // cheaper positions kept per step as alternatives
)

func solveClimb(g *Game, maxNodes int, w weights) engine.Result[engine.Action] {
	stock := g.stock
	c := &climber{
		w: w,
		row: func(p *pos) []engine.Card {
			r := numRows - int(p.rows)
			return stock[r*numCols : r*numCols+numCols]
		},
		budget: maxNodes,
		done:   *engine.NewSeenSet(1 << 12),
	}
	c.seen.init(1 << 16)
	start := spos{p: g.p, k: g.p.key()}
	c.done.Add(start.k)
	res := engine.Result[engine.Action]{Outcome: engine.Undecided}
	if start.p.runs >= numRuns {
		res.Outcome = engine.Solved
		return res
	}
	stack := []climbFrame{{next: c.steps(&start)}}
	for len(stack) > 0 && c.nodes < c.budget {
		f := &stack[len(stack)-1]
		if f.i >= len(f.next) {
			stack = stack[:len(stack)-1]
			continue
		}
		s := f.next[f.i]
		f.i++
		if !c.done.Add(s.p.k) {
			continue
		}
		if s.p.p.runs >= numRuns {
			var ms []smove
			for _, fr := range stack[1:] {
				ms = append(ms, fr.moves...)
			}
			res.Moves = g.actions(append(ms, s.moves...))
			res.Outcome = engine.Solved
			break
		}
		stack = append(stack, climbFrame{moves: s.moves, next: c.steps(&s.p)})
	}
	res.Nodes = c.nodes
	return res
}

// steps searches breadth first from s for positions cheaper than s and
// returns up to climbKeep of them, cheapest first, the nearest layer only;
// then a row dealt at s if it may be dealt. With none cheaper, it returns
// rows dealt from the cheapest positions the search reached.
func (c *climber) steps(s *spos) []step {
	c.seen.clear()
	c.seen.add(s.k)
	c.bfs = append(c.bfs[:0], bfsNode{p: *s, parent: -1})
	base := cost(&s.p, c.w)
	var out []step
	found := int16(-1)
	limit := min(climbReach, c.budget-c.nodes)
	for i := 0; i < len(c.bfs) && len(c.bfs) < limit; i++ {
		if found >= 0 && c.bfs[i].depth >= found {
			break
		}
		cur := c.bfs[i].p
		d := c.bfs[i].depth + 1
		expand(&cur.p, nil, c.w, &c.seen, &c.scratch, func(m smove, q *spos) {
			c.bfs = append(c.bfs, bfsNode{p: *q, parent: int32(i), m: m, depth: d})
			if qc := cost(&q.p, c.w); qc < base || q.p.runs >= numRuns {
				found = d
				out = append(out, step{p: *q, moves: c.path(len(c.bfs) - 1), cost: qc})
			}
		})
	}
	c.nodes += len(c.bfs)
	slices.SortStableFunc(out, func(a, b step) int { return a.cost - b.cost })
	if len(out) > climbKeep {
		out = out[:climbKeep]
	}
	if len(out) > 0 {
		if s.p.canDeal() {
			q := spos{p: s.p}
			q.p.deal(c.row(&s.p))
			q.k = q.p.key()
			out = append(out, step{p: q, moves: []smove{dealMove}, cost: cost(&q.p, c.w)})
		}
		return out
	}
	// A plateau: deal from its cheapest positions.
	type dealt struct {
		p    spos
		i    int
		cost int
	}
	var best []dealt
	for i := range c.bfs {
		n := &c.bfs[i]
		if !n.p.p.canDeal() {
			continue
		}
		q := spos{p: n.p.p}
		q.p.deal(c.row(&n.p.p))
		qc := cost(&q.p, c.w)
		if len(best) == climbKeep && qc >= best[len(best)-1].cost {
			continue
		}
		j := len(best)
		for j > 0 && best[j-1].cost > qc {
			j--
		}
		best = slices.Insert(best, j, dealt{p: q, i: i, cost: qc})
		if len(best) > climbKeep {
			best = best[:climbKeep]
		}
	}
	for _, d := range best {
		d.p.k = d.p.p.key()
		out = append(out, step{p: d.p, moves: append(c.path(d.i), dealMove), cost: d.cost})
	}
	return out
}

// path is the moves from the breadth-first search's root to node i.
func (c *climber) path(i int) []smove {
	var ms []smove
	for ; c.bfs[i].parent >= 0; i = int(c.bfs[i].parent) {
		ms = append(ms, c.bfs[i].m)
	}
	slices.Reverse(ms)
	return ms
}

// stampSet is a set of position keys that empties in constant time: a
// slot counts only if it carries the current stamp.
type stampSet struct {
	keys   []uint64
	stamps []uint32
	stamp  uint32
	n      int
}

func (t *stampSet) init(size int) {
	t.keys = make([]uint64, size)
	t.stamps = make([]uint32, size)
	t.stamp = 1
	t.n = 0
}

func (t *stampSet) clear() {
	t.stamp++
	t.n = 0
	if t.stamp == 0 {
		clear(t.stamps)
		t.stamp = 1
	}
}

func (t *stampSet) add(k uint64) bool {
	if t.n*2 >= len(t.keys) {
		t.grow()
	}
	mask := uint64(len(t.keys) - 1)
	h := k * 0x9e3779b97f4a7c15
	for i := (h ^ h>>29) & mask; ; i = (i + 1) & mask {
		if t.stamps[i] != t.stamp {
			t.keys[i], t.stamps[i] = k, t.stamp
			t.n++
			return true
		}
		if t.keys[i] == k {
			return false
		}
	}
}

func (t *stampSet) grow() {
	old, olds, st := t.keys, t.stamps, t.stamp
	t.init(2 * len(old))
	t.stamp = st
	for i, k := range old {
		if olds[i] == st {
			t.add(k)
		}
	}
}
