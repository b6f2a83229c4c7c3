package klondike

import (
	"slices"

	"sshuffle/engine"
)

// kid is one successor of a position in the depth-first search.
type kid struct {
	m     smove
	score int32
	order int32
	s     sstate
}

// frame is one position on the search path: its successors are
// kids[lo:hi], and next is the one to try next.
type frame struct {
	lo, hi, next int32
}

// cost is the work left in a position: face-down cards weigh most, since
// each one turned opens new moves.
var kindCount [5]int

var downW = int32(3)

func (s *sstate) cost() int32 {
	c := int32(0)
	for k := range 7 {
		c += downW * int32(s.down[k])
	}
	return c + 52 - int32(s.found[0]+s.found[1]+s.found[2]+s.found[3])
}

// dfs is a depth-first search over the solver's moves that tries the
// successors of each position in order of work left, so that it heads for
// a win about as a best-first search would, but with little memory and no
// priority queue. It is exhaustive: with the transposition table it visits
// every reachable position once, so running out of positions proves the
// deal lost.
func (sv *solver) dfs(start sstate, maxNodes int) (engine.Outcome, []smove, int) {
	if start.won() {
		return engine.Solved, nil, 1
	}
	seen := engine.NewSeenSet(1 << 16)
	seen.Add(sv.key(&start))
	nodes := 1
	var kids []kid
	var stack []frame
	var path []smove
	push := func(s *sstate) {
		lo := int32(len(kids))
		var order int32
		sv.expand(*s, func(m smove, n sstate) {
			kids = append(kids, kid{m: m, s: n, score: n.cost(), order: order})
			order++
		})
		hi := int32(len(kids))
		slices.SortFunc(kids[lo:hi], func(a, b kid) int {
			if a.score != b.score {
				return int(a.score - b.score)
			}
			return int(a.order - b.order)
		})
		stack = append(stack, frame{lo: lo, hi: hi, next: lo})
	}
	push(&start)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next >= top.hi {
			kids = kids[:top.lo]
			stack = stack[:len(stack)-1]
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
			continue
		}
		k := &kids[top.next]
		top.next++
		if !seen.Add(sv.key(&k.s)) {
			continue
		}
		nodes++
		kindCount[k.m.kind]++
		if k.s.must != 0 {
			kindCount[4]++
		}
		path = append(path, k.m)
		if k.s.won() {
			return engine.Solved, path, nodes
		}
		if nodes >= maxNodes {
			return engine.Undecided, nil, nodes
		}
		s := k.s
		push(&s)
	}
	return engine.Impossible, nil, nodes
}
