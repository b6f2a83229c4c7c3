package spider

import (
	"sync"

	"sshuffle/engine"
)

// searcher is engine.Search's best-first search made for spider
// positions, visiting the same positions in the same order (lowest cost
// first, the newest of equal cost first) without its costs per position:
// the open list is a bucket per cost, each a stack (so the newest comes
// first); open positions sit in one slab with no pointers for the
// collector to follow, their slots reused once expanded; and children are
// built in one scratch position, and only when new. Its tables are
// pooled, so a portfolio of searches reuses them.
type searcher struct {
	seen    stampSet
	parent  []int32
	moves   []smove
	slab    []spos
	free    []int32
	buckets [][]openNode
	scratch spos
}

type openNode struct{ node, slot int32 }

var searchers = sync.Pool{New: func() any {
	s := &searcher{}
	s.seen.init(1 << 16)
	return s
}}

// bestFirst searches from start with cost weights w, at most maxNodes
// positions, and returns the outcome, the moves of a win and the positions
// made. row gives a position's next stock row.
func bestFirst(start *spos, maxNodes int, w weights, row func(*pos) []engine.Card) (engine.Outcome, []smove, int) {
	s := searchers.Get().(*searcher)
	defer searchers.Put(s)
	s.seen.clear()
	s.parent, s.moves, s.slab, s.free = s.parent[:0], s.moves[:0], s.slab[:0], s.free[:0]
	for i := range s.buckets {
		s.buckets[i] = s.buckets[i][:0]
	}
	s.seen.add(start.k)
	s.parent = append(s.parent, -1)
	s.moves = append(s.moves, 0)
	if start.p.runs >= numRuns {
		return engine.Solved, nil, 1
	}
	// Costs go below zero by at most the credit for empty columns.
	offset := numCols*max(w.empty, 0) + 1
	lowest := len(s.buckets)
	push := func(c int, node int32, p *spos) {
		var slot int32
		if n := len(s.free); n > 0 {
			slot = s.free[n-1]
			s.free = s.free[:n-1]
			s.slab[slot] = *p
		} else {
			slot = int32(len(s.slab))
			s.slab = append(s.slab, *p)
		}
		b := c + offset
		for b >= len(s.buckets) {
			s.buckets = append(s.buckets, nil)
		}
		s.buckets[b] = append(s.buckets[b], openNode{node, slot})
		lowest = min(lowest, b)
	}
	push(cost(&start.p, w), 0, start)
	var cur spos
	// One callback for the whole search, not one a position: a closure
	// made in the loop would be a heap allocation per expansion, and the
	// collector's cycles (stopping this goroutine for each) cost more
	// than the allocations themselves.
	var it openNode
	won := int32(-1)
	child := func(m smove, q *spos) {
		if won >= 0 {
			return
		}
		s.parent = append(s.parent, it.node)
		s.moves = append(s.moves, m)
		idx := int32(len(s.parent) - 1)
		if q.p.runs >= numRuns {
			won = idx
			return
		}
		c := cost(&q.p, w)
		if w.jitter > 0 {
			h := (q.k ^ w.seed) * 0x9e3779b97f4a7c15
			c += int((h >> 40) % uint64(w.jitter+1))
		}
		push(c, idx, q)
	}
	for {
		for lowest < len(s.buckets) && len(s.buckets[lowest]) == 0 {
			lowest++
		}
		if lowest >= len(s.buckets) {
			return engine.Impossible, nil, len(s.parent)
		}
		b := s.buckets[lowest]
		it = b[len(b)-1]
		s.buckets[lowest] = b[:len(b)-1]
		cur = s.slab[it.slot]
		s.free = append(s.free, it.slot)
		expand(&cur.p, row, w, &s.seen, &s.scratch, child)
		if won >= 0 {
			var ms []smove
			for i := won; s.parent[i] >= 0; i = s.parent[i] {
				ms = append(ms, s.moves[i])
			}
			for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
				ms[i], ms[j] = ms[j], ms[i]
			}
			return engine.Solved, ms, len(s.parent)
		}
		if len(s.parent) >= maxNodes {
			return engine.Undecided, nil, len(s.parent)
		}
	}
}
