package engine

import "container/heap"

// Outcome is what a solver can say about a deal.
type Outcome uint8

const (
	Undecided  Outcome = iota // the node budget ran out
	Solved                    // won; the move list is in Result
	Impossible                // every reachable position was searched
)

func (o Outcome) String() string {
	return [...]string{"undecided", "solved", "impossible"}[o]
}

// Result of a search. Moves leads from the start to a won position.
type Result[M any] struct {
	Outcome Outcome
	Moves   []M
	Nodes   int
}

// Problem describes a one-player game to the search core. Expand must yield
// each successor of s once; it should already apply safe automatic moves and
// leave out dominated moves, since that is where most of the pruning is.
// Key must be equal for positions that are the same for the game's purpose
// (for example with columns sorted), which is what makes the transposition
// table work.
type Problem[S any, M any] struct {
	Key    func(S) uint64
	Won    func(S) bool
	Expand func(s S, yield func(m M, next S))
	// Cost orders best-first search: lower is tried first. Nil means
	// depth-first.
	Cost func(S) int
}

// Search runs best-first search when Cost is set, else depth-first, and
// visits at most maxNodes positions. A budget in nodes rather than seconds
// keeps results the same on every machine.
func Search[S any, M any](p Problem[S, M], start S, maxNodes int) Result[M] {
	if p.Cost != nil {
		return bestFirst(p, start, maxNodes)
	}
	return depthFirst(p, start, maxNodes)
}

type dfsFrame[S any, M any] struct {
	kids []child[S, M]
	next int
}

type child[S any, M any] struct {
	m M
	s S
}

func depthFirst[S any, M any](p Problem[S, M], start S, maxNodes int) Result[M] {
	seen := NewSeenSet(1 << 16)
	seen.Add(p.Key(start))
	if p.Won(start) {
		return Result[M]{Outcome: Solved, Nodes: 1}
	}
	nodes := 1
	expand := func(s S) []child[S, M] {
		var kids []child[S, M]
		p.Expand(s, func(m M, n S) { kids = append(kids, child[S, M]{m, n}) })
		return kids
	}
	stack := []dfsFrame[S, M]{{kids: expand(start)}}
	var path []M
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next >= len(top.kids) {
			stack = stack[:len(stack)-1]
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
			continue
		}
		k := top.kids[top.next]
		top.next++
		if !seen.Add(p.Key(k.s)) {
			continue
		}
		nodes++
		path = append(path, k.m)
		if p.Won(k.s) {
			return Result[M]{Outcome: Solved, Moves: append([]M(nil), path...), Nodes: nodes}
		}
		if nodes >= maxNodes {
			return Result[M]{Outcome: Undecided, Nodes: nodes}
		}
		stack = append(stack, dfsFrame[S, M]{kids: expand(k.s)})
	}
	return Result[M]{Outcome: Impossible, Nodes: nodes}
}

type bfNode[S any, M any] struct {
	parent int32
	m      M
	s      S
}

type bfItem struct {
	cost  int
	order int32 // ties go to the newest node: it behaves like DFS on plateaus
	node  int32
}

type bfQueue []bfItem

func (q bfQueue) Len() int { return len(q) }
func (q bfQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	return q[i].order > q[j].order
}
func (q bfQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *bfQueue) Push(x any)   { *q = append(*q, x.(bfItem)) }
func (q *bfQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

func bestFirst[S any, M any](p Problem[S, M], start S, maxNodes int) Result[M] {
	seen := NewSeenSet(1 << 16)
	seen.Add(p.Key(start))
	nodes := []bfNode[S, M]{{parent: -1, s: start}}
	if p.Won(start) {
		return Result[M]{Outcome: Solved, Nodes: 1}
	}
	q := &bfQueue{{cost: p.Cost(start), node: 0}}
	var order int32
	for q.Len() > 0 {
		it := heap.Pop(q).(bfItem)
		cur := it.node
		var won int32 = -1
		p.Expand(nodes[cur].s, func(m M, n S) {
			if won >= 0 || !seen.Add(p.Key(n)) {
				return
			}
			nodes = append(nodes, bfNode[S, M]{parent: cur, m: m, s: n})
			idx := int32(len(nodes) - 1)
			if p.Won(n) {
				won = idx
				return
			}
			order++
			heap.Push(q, bfItem{cost: p.Cost(n), order: order, node: idx})
		})
		if won >= 0 {
			var moves []M
			for i := won; nodes[i].parent >= 0; i = nodes[i].parent {
				moves = append(moves, nodes[i].m)
			}
			for i, j := 0, len(moves)-1; i < j; i, j = i+1, j-1 {
				moves[i], moves[j] = moves[j], moves[i]
			}
			return Result[M]{Outcome: Solved, Moves: moves, Nodes: len(nodes)}
		}
		if len(nodes) >= maxNodes {
			return Result[M]{Outcome: Undecided, Nodes: len(nodes)}
		}
		// The position is expanded: its state is no longer needed, only
		// the parent link and move for rebuilding the path.
		var zero S
		nodes[cur].s = zero
	}
	return Result[M]{Outcome: Impossible, Nodes: len(nodes)}
}

// SeenSet is an open-addressing set of 64-bit position keys: far smaller
// than a map for the millions of keys a hard deal produces. Key 0 is
// remapped so it can mark empty slots.
type SeenSet struct {
	slots []uint64
	n     int
}

// NewSeenSet makes a set with room for about capacity keys before growing.
func NewSeenSet(capacity int) *SeenSet {
	return &SeenSet{slots: make([]uint64, TableSize(capacity))}
}

// TableSize is the slot count of an open-addressing table holding capacity
// keys at half load at most: a power of two, so a probe wraps with a mask.
func TableSize(capacity int) int {
	size := 16
	for size < capacity*2 {
		size <<= 1
	}
	return size
}

// fix remaps key 0, which marks an empty slot.
func fix(k uint64) uint64 {
	if k == 0 {
		return 0x9e3779b97f4a7c15
	}
	return k
}

// Add inserts k and reports whether it was new.
func (t *SeenSet) Add(k uint64) bool {
	k = fix(k)
	if t.n*2 >= len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := mix(k) & mask; ; i = (i + 1) & mask {
		switch t.slots[i] {
		case 0:
			t.slots[i] = k
			t.n++
			return true
		case k:
			return false
		}
	}
}

// Has reports whether k is in the set.
func (t *SeenSet) Has(k uint64) bool {
	k = fix(k)
	mask := uint64(len(t.slots) - 1)
	for i := mix(k) & mask; ; i = (i + 1) & mask {
		switch t.slots[i] {
		case 0:
			return false
		case k:
			return true
		}
	}
}

// Remove deletes k. Later keys of its probe run shift back into the hole,
// so lookups never need tombstones: a depth-first search that forgets the
// positions on its path at each restart removes millions of keys.
func (t *SeenSet) Remove(k uint64) {
	k = fix(k)
	mask := uint64(len(t.slots) - 1)
	i := mix(k) & mask
	for ; t.slots[i] != k; i = (i + 1) & mask {
		if t.slots[i] == 0 {
			return
		}
	}
	t.slots[i] = 0
	t.n--
	for j := (i + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		h := mix(t.slots[j]) & mask
		// slots[j] may move into the hole at i unless its home lies
		// cyclically in (i, j].
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			t.slots[i], t.slots[j] = t.slots[j], 0
			i = j
		}
	}
}

// Each calls f with every key held.
func (t *SeenSet) Each(f func(uint64)) {
	for _, k := range t.slots {
		if k != 0 {
			f(k)
		}
	}
}

// Len is the number of keys held.
func (t *SeenSet) Len() int { return t.n }

// Reset empties the set, keeping its memory.
func (t *SeenSet) Reset() {
	clear(t.slots)
	t.n = 0
}

func (t *SeenSet) grow() {
	old := t.slots
	t.slots = make([]uint64, len(old)*2)
	Prefault(t.slots)
	t.n = 0
	for _, k := range old {
		if k != 0 {
			t.Add(k)
		}
	}
}

func mix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}
