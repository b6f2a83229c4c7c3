package freecell

import (
	"sshuffle/engine"
)

// The search below is engine.Search's best-first search specialised to
// FreeCell, since the generic one spends most of its time copying and
// boxing whole boards. A position waiting in the queue is only its
// parent and a move, made again when it is taken; expanded positions are
// kept packed in 64 bytes with their column costs. The queue is a bucket
// queue on the (small, integer) cost, each bucket a stack so that ties go
// to the newest position, as in the engine. Keys and costs are kept per
// column and worked out again only for the columns a move changes the
// length of (a column keeps its length only when its cards are the same).

// packed is a position in 64 bytes: the column cards one column after
// another, the column lengths, then the cells. The foundations follow from
// the cards still in play.
type packed [64]byte

const (
	packLens  = 52
	packCells = 60
)

func pack(b *board) packed {
	var p packed
	k := 0
	for i := range numCols {
		n := int(b.n[i])
		for _, c := range b.cols[i][:n] {
			p[k] = byte(c)
			k++
		}
		p[packLens+i] = byte(n)
	}
	for i, c := range b.cells {
		p[packCells+i] = byte(c)
	}
	return p
}

func unpack(p *packed, b *board) {
	*b = board{}
	left := [4]uint8{13, 13, 13, 13}
	k := 0
	for i := range numCols {
		n := int(p[packLens+i])
		b.n[i] = uint8(n)
		for j := range n {
			c := engine.Card(p[k])
			b.cols[i][j] = c
			left[c.Suit()]--
			k++
		}
	}
	for i := range numCells {
		c := engine.Card(p[packCells+i])
		b.cells[i] = c
		if c != engine.NoCard {
			left[c.Suit()]--
		}
	}
	b.found = left
}

// zobrist[p][c] is the hash of card c at depth p of a column; zcell[c] of
// card c in a cell.
var zobrist [maxCol][64]uint64
var zcell [64]uint64

func init() {
	x := uint64(0x2545f4914f6cdd1d)
	next := func() uint64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x * 0x9e3779b97f4a7c15
	}
	for p := range zobrist {
		for c := range zobrist[p] {
			zobrist[p][c] = next()
		}
	}
	for c := range zcell {
		zcell[c] = next()
	}
}

func colHash(b *board, i int) uint64 {
	var h uint64
	for p, c := range b.cols[i][:b.n[i]] {
		h ^= zobrist[p][c]
	}
	return h
}

// colMix turns a column hash into its share of the position key; the
// shares are added, so the columns count as a multiset.
func colMix(h uint64) uint64 {
	if h == 0 {
		return 0
	}
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	h *= 0x94d049bb133111eb
	return h ^ h>>32
}

func cellHash(b *board) uint64 {
	var h uint64
	for _, c := range b.cells {
		if c != engine.NoCard {
			h ^= zcell[c]
		}
	}
	return h
}

// autoStrong is autoAll with the strong safe rule, inlined for the
// search.
func (b *board) autoStrong() {
	for {
		// want has a bit for each card that is next on its foundation.
		var want uint64
		for s, f := range b.found {
			want |= 1 << (s<<4 | int(f) + 1)
		}
		moved := false
		for i, c := range b.cells {
			if want>>(c&63)&1 != 0 && c != engine.NoCard && b.safeStrong(c) {
				b.cells[i] = engine.NoCard
				b.found[c.Suit()]++
				moved = true
			}
		}
		for i := range numCols {
			n := b.n[i]
			if n == 0 {
				continue
			}
			if c := b.cols[i][n-1]; want>>(c&63)&1 != 0 && b.canFound(c) && b.safeStrong(c) {
				b.n[i]--
				b.cols[i][n-1] = engine.NoCard
				b.found[c.Suit()]++
				moved = true
			}
		}
		if !moved {
			return
		}
	}
}

type searcher struct {
	w    weights
	seen *engine.SeenSet
	// Each node made has the slot of its parent in expanded and the
	// move from there; its own position is made again from those when
	// it is taken from the queue, and kept only then.
	parent   []int32
	moves    []smove
	expanded []packed   // the positions of the expanded nodes
	expNode  []int32    // the node of each of them
	info     []slotInfo // the column costs of each of them
	// buckets[c] holds the waiting nodes of cost c, newest last.
	buckets [][]int32
	minB    int
	waiting int

	// The node being expanded.
	cur     board
	curSlot int32           // its slot in expanded
	colh    [numCols]uint64 // colHash of each column of cur
	colk    uint64          // sum of colMix over cur's columns
	colc    [numCols]int    // colCost of each column of cur
	colcs   int             // their sum
	won     int32
}

const maxBucket = 4096

func (s *searcher) reset(budget int) {
	s.seen = engine.NewSeenSet(min(budget, 1<<11))
	s.expanded = s.expanded[:0]
	s.expNode = s.expNode[:0]
	s.info = s.info[:0]
	s.parent = s.parent[:0]
	s.moves = s.moves[:0]
	for i := range s.buckets {
		s.buckets[i] = s.buckets[i][:0]
	}
	s.minB = len(s.buckets)
	s.waiting = 0
	s.won = -1
}

func (s *searcher) push(node int32, cost int) {
	cost = max(0, min(cost, maxBucket-1))
	for cost >= len(s.buckets) {
		s.buckets = append(s.buckets, nil)
	}
	s.buckets[cost] = append(s.buckets[cost], node)
	s.minB = min(s.minB, cost)
	s.waiting++
}

func (s *searcher) pop() int32 {
	for len(s.buckets[s.minB]) == 0 {
		s.minB++
	}
	bk := s.buckets[s.minB]
	n := bk[len(bk)-1]
	s.buckets[s.minB] = bk[:len(bk)-1]
	s.waiting--
	return n
}

// keyOf is the key of next, a successor of cur.
func (s *searcher) keyOf(next *board) uint64 {
	k := s.colk
	for i := range numCols {
		if s.cur.n[i] != next.n[i] {
			k += colMix(s.colHashOf(next, i)) - colMix(s.colh[i])
		}
	}
	return k ^ cellHash(next)
}

// colHashOf is the hash of column i of next, a successor of cur, worked
// out from cur's: a move only adds cards to a column's end or takes them
// from it, so only those cards' terms change.
func (s *searcher) colHashOf(next *board, i int) uint64 {
	on, nn := int(s.cur.n[i]), int(next.n[i])
	h := s.colh[i]
	for p := nn; p < on; p++ {
		h ^= zobrist[p][s.cur.cols[i][p]]
	}
	for p := on; p < nn; p++ {
		h ^= zobrist[p][next.cols[i][p]]
	}
	return h
}

func (s *searcher) run(start board, maxNodes int) engine.Result[smove] {
	s.reset(maxNodes)
	s.cur = start
	s.setCur()
	s.seen.Add(s.keyOf(&start))
	s.add(-1, smove{})
	if start.won() {
		return engine.Result[smove]{Outcome: engine.Solved, Nodes: 1}
	}
	s.push(0, cost(&start, s.w))
	for s.waiting > 0 {
		idx := s.pop()
		if idx == 0 {
			s.cur = start
			s.setCur()
		} else {
			// Back to the parent, with its column shares, then the move.
			ps := s.parent[idx]
			unpack(&s.expanded[ps], &s.cur)
			in := &s.info[ps]
			s.colk, s.colcs = 0, 0
			for i := range numCols {
				s.colh[i], s.colc[i] = colHash(&s.cur, i), int(in[i])
				s.colk += colMix(s.colh[i])
				s.colcs += s.colc[i]
			}
			next := s.cur
			m := s.moves[idx]
			mv := move{from: int(m.from), index: int(m.index), count: 1, to: int(m.to)}
			if mv.from >= firstCol {
				mv.count = int(next.n[mv.from-firstCol]) - mv.index
			}
			apply(&next, mv)
			next.autoStrong()
			s.advance(&next)
		}
		s.curSlot = int32(len(s.expanded))
		s.expanded = append(s.expanded, pack(&s.cur))
		s.expNode = append(s.expNode, idx)
		var in slotInfo
		for i := range numCols {
			in[i] = int16(s.colc[i])
		}
		s.info = append(s.info, in)
		s.expand()
		if s.won >= 0 {
			var moves []smove
			for i := s.won; i != 0; i = s.expNode[s.parent[i]] {
				moves = append(moves, s.moves[i])
			}
			for i, j := 0, len(moves)-1; i < j; i, j = i+1, j-1 {
				moves[i], moves[j] = moves[j], moves[i]
			}
			return engine.Result[smove]{Outcome: engine.Solved, Moves: moves, Nodes: len(s.parent)}
		}
		if len(s.parent) >= maxNodes {
			return engine.Result[smove]{Outcome: engine.Undecided, Nodes: len(s.parent)}
		}
	}
	return engine.Result[smove]{Outcome: engine.Impossible, Nodes: len(s.parent)}
}

// advance makes next, a successor of cur, the current position, updating
// the column shares of the key and the cost for the columns it changed.
func (s *searcher) advance(next *board) {
	all := next.found != s.cur.found
	for i := range numCols {
		changed := s.cur.n[i] != next.n[i]
		if changed {
			h := s.colHashOf(next, i)
			s.colk += colMix(h) - colMix(s.colh[i])
			s.colh[i] = h
		}
		if changed || all {
			c := colCost(next, i, s.w)
			s.colcs += c - s.colc[i]
			s.colc[i] = c
		}
	}
	s.cur = *next
}

// slotInfo is the colCost of each column of an expanded position, kept
// so that its children need only count the columns they change.
type slotInfo [numCols]int16

func (s *searcher) setCur() {
	s.colk, s.colcs = 0, 0
	for i := range numCols {
		s.colh[i] = colHash(&s.cur, i)
		s.colk += colMix(s.colh[i])
		s.colc[i] = colCost(&s.cur, i, s.w)
		s.colcs += s.colc[i]
	}
}

func (s *searcher) add(parent int32, m smove) int32 {
	s.parent = append(s.parent, parent)
	s.moves = append(s.moves, m)
	return int32(len(s.parent) - 1)
}

// emit tries move m from cur.
func (s *searcher) emit(m move) {
	if s.won >= 0 {
		return
	}
	next := s.cur
	apply(&next, m)
	next.autoStrong()
	if !s.seen.Add(s.keyOf(&next)) {
		return
	}
	idx := s.add(s.curSlot, smove{uint8(m.from), uint8(m.index), uint8(m.to)})
	if next.won() {
		s.won = idx
		return
	}
	s.push(idx, s.costOf(&next))
}

// costOf is cost(next, s.w) for a successor next of cur: only the columns
// whose length changed need counting again, unless a card went up.
func (s *searcher) costOf(next *board) int {
	if next.found != s.cur.found {
		return cost(next, s.w)
	}
	h := s.colcs
	for i := range numCols {
		if next.n[i] != s.cur.n[i] {
			h += colCost(next, i, s.w) - s.colc[i]
		}
	}
	return h + restCost(next, s.w)
}
