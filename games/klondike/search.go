package klondike

import (
	"math/bits"

	"sshuffle/engine"
)

// kid is one successor of a position in the depth-first search.
type kid struct {
	m    smove
	mask uint32
	// fresh is the part of mask no searched position with the same
	// layout reaches (see domSet): a line from the position whose first
	// talon card is outside it was searched through already.
	fresh uint32
	// lim is the part of mask its parent's lines may still start from,
	// when a tableau move led here: such a move leaves the talon and its
	// split alone, so a line from here is a line from the parent, and one
	// whose first talon card the parent left out (outside the parent's
	// fresh) goes where a position searched before the parent went.
	// Only the talon moves in fresh&lim are played, and the position is
	// known when there are none. lim is not fresh, which also makes the
	// dead check stop at the first talon card (see deadIn): kept apart,
	// the full check still runs, and proves more such positions lost
	// than it costs (reports/solvers.md, "Fresh cards handed down").
	lim  uint32
	key  uint64
	base uint64
	s    sstate
}

// rank orders the successors of a position without moving the states:
// kids[i] is tried in order of score.
type rank struct {
	score, i int32
}

// frame is one position on the search path: its successors are
// kids[lo:hi], tried in the order ord[lo:hi] gives, and next is the one to
// try next.
type frame struct {
	lo, hi, next int32
	mask         uint32
	key, base    uint64
	// dirty: in a Draw 1 probe (see lost), a successor was left out
	// that is not known to be lost.
	dirty bool
}

// cost is the work left in a position: face-down cards weigh most, since
// each one turned opens new moves.
func (s *sstate) cost() int32 {
	c := int32(0)
	for k := range 7 {
		c += 3 * int32(s.down[k])
	}
	return c + 52 - int32(s.found[0]+s.found[1]+s.found[2]+s.found[3])
}

// domSet keeps, for a Draw 3 position key without the talon split, the
// union of the reach masks of the positions with that base that have been
// searched through. A position whose mask lies within that union is
// searched through too: a line from it plays tableau moves, which leave
// the talon alone, up to its first talon card, and the searched position
// that reaches that card has the same moves up to it and the same
// position after (the talon split is all they differed in; a searched
// position bound by the lay-down rule left some of those moves out, but
// they were searched from the position before its lay-down, see
// sstate.lay). Forgetting one is always safe: it only prunes less.
type domSet struct {
	slots []domEntry
	n     int
}

type domEntry struct {
	k uint64
	m uint32
}

// fixKey remaps key 0, which marks an empty slot.
func fixKey(k uint64) uint64 {
	if k == 0 {
		return 0x9e3779b97f4a7c15
	}
	return k
}

func newDomSet(capacity int) *domSet {
	return &domSet{slots: make([]domEntry, engine.TableSize(capacity))}
}

// uncovered is the part of mask no searched position with this base
// reaches, and whether one with the base was searched at all.
func (t *domSet) uncovered(base uint64, mask uint32) (uint32, bool) {
	k := fixKey(base)
	m := uint64(len(t.slots) - 1)
	for i := k & m; ; i = (i + 1) & m {
		switch t.slots[i].k {
		case 0:
			return mask, false
		case k:
			return mask &^ t.slots[i].m, true
		}
	}
}

// coveredBy: a Draw 3 position with reach mask, of which rest is reached
// by no searched position with its layout (ok: there is one), is known.
// With no talon card left (mask 0) every line is tableau moves alone, so
// it is known once its layout was searched.
func coveredBy(rest uint32, ok bool, mask uint32) bool { return rest == 0 && (ok || mask != 0) }

// put records a searched position, adding its mask to its base's union.
func (t *domSet) put(base uint64, mask uint32) {
	if t.n*2 >= len(t.slots) {
		old := t.slots
		t.slots, t.n = make([]domEntry, len(old)*2), 0
		engine.Prefault(t.slots)
		for _, e := range old {
			if e.k != 0 {
				t.put(e.k, e.m)
			}
		}
	}
	k := fixKey(base)
	m := uint64(len(t.slots) - 1)
	for i := k & m; ; i = (i + 1) & m {
		switch t.slots[i].k {
		case 0:
			t.slots[i] = domEntry{k, mask}
			t.n++
			return
		case k:
			t.slots[i].m |= mask
			return
		}
	}
}

// search is depth-first with restarts. Each run tries the successors of a
// position in order of work left, with some noise after the first run, and
// stops after its share of positions. Positions a run has searched through
// are kept as dead ends for all later runs; only those still on its path
// are forgotten. So a restart costs little, and a run stuck deep below a
// bad early choice gets another chance at that choice. Running out of
// positions proves the deal lost, as in a plain depth-first search.
func (sv *solver) search(start sstate, maxNodes int) (engine.Outcome, []smove, int) {
	return newDFS(sv, start).upTo(maxNodes)
}

// upTo runs d until it decides or has visited maxNodes positions; it can
// go on later from where it stopped.
func (d *dfs) upTo(maxNodes int) (engine.Outcome, []smove, int) {
	for d.out == engine.Undecided && d.nodes < maxNodes {
		d.run(maxNodes)
	}
	return d.out, d.path, d.nodes
}

// dfs is one search, kept between runs so that two searches can take
// turns (see searchDraw3).
type dfs struct {
	sv    *solver
	start sstate
	// seen holds the positions searched through and those on the path;
	// in a team only those on the path, the rest being in its tables
	// (one table less to look in, and a small one).
	seen    *engine.SeenSet
	dom     *domSet
	nodes   int
	rng     uint64
	noise   int32
	budget  int
	kids    []kid
	next    sstate // the successor push is looking at
	ord     []rank
	stack   []frame
	path    []smove
	out     engine.Outcome // Undecided until a run decides
	scratch *deadScratch
	twin    twinSkip
	// In a team (see team.go): the budget and stop signal of all its
	// searches, and the tables they share (not the Draw 1 search of a
	// Draw 3 deal); nil when alone.
	ctl     *control
	tab     *tables
	pending int // positions not yet counted in ctl
	runs    int // runs made
	// one is a Draw 3 team search's Draw 1 probe (probe.go).
	one *drawOne
	// In a Draw 1 probe: lost holds Draw 1 positions proved lost, those
	// of the team's probes before; won, positions with a Draw 1 win; and
	// hitWon says a successor is one. A position the probe searches
	// through is proved lost, and goes in lost, when no successor was left
	// out but for being dead or in lost: one left out for lying on the
	// path, or for being searched through without such a proof, makes it
	// and every position below it on the path dirty, since what it
	// leaves out may yet win.
	lost, won *engine.SyncSet
	hitWon    bool
}

func newDFS(sv *solver, start sstate) *dfs {
	// The tables start small and grow: half of all deals are decided
	// within a few hundred positions, and what a deal's search makes is
	// garbage after it, in a heap that holds little else (a team's big
	// tables live outside it), so large first tables would set the
	// collector off every few deals. Only Draw 3 positions have talon
	// splits to dominate.
	d := &dfs{sv: sv, seen: engine.NewSeenSet(1 << 8), rng: 0x2545f4914f6cdd1d, scratch: new(deadScratch)}
	if sv.draw == 3 {
		d.dom = newDomSet(1 << 8)
	}
	d.begin(start)
	return d
}

// begin readies d to search start, as if no run had been made; what it
// has searched through is the caller's to clear.
func (d *dfs) begin(start sstate) {
	d.start = start
	d.nodes, d.runs, d.noise, d.budget = 0, 0, 0, restartUnit
	d.out, d.hitWon, d.twin = engine.Undecided, false, twinSkip{}
	if start.won() {
		d.out, d.nodes = engine.Solved, 1
	}
}

func (d *dfs) push(s *sstate, key, base uint64, mask, fresh uint32) {
	sv := d.sv
	lo := len(d.kids)
	n := &d.next
	// A talon card outside fresh leads where a searched position with
	// this layout led: it is not played (see kid).
	talon := ^uint32(0)
	if sv.draw == 3 && !freshOff {
		talon = fresh
	}
	tn := s.tn
	sv.successors(*s, n, talon, func(m smove) {
		sc := n.cost() * 64
		if d.noise > 0 {
			d.rng ^= d.rng << 13
			d.rng ^= d.rng >> 7
			d.rng ^= d.rng << 17
			sc += int32(d.rng % uint64(d.noise))
		}
		key, base, mask := sv.keys(n)
		lim := mask
		if talon != ^uint32(0) && n.tn == tn && !handDownOff {
			lim &= talon // a tableau move: the talon is as it was
		}
		d.ord = append(d.ord, rank{score: sc})
		d.kids = append(d.kids, kid{m: m, mask: mask, fresh: mask, lim: lim, key: key, base: base, s: *n})
	})
	// A successor already searched through is left out now rather than
	// when its turn comes. The look-ups are made here, all together, so
	// that their cache misses overlap; and the table lines are likely
	// still at hand for the add later.
	w := lo
	dirty := false
	for j := lo; j < len(d.kids); j++ {
		k := &d.kids[j]
		if d.won != nil && d.won.Has(k.key) {
			d.hitWon = true
		}
		if d.known(k.key, k.base, k.mask, &k.fresh) || k.handedDown() {
			dirty = dirty || d.lost != nil && !d.lost.Has(k.key)
			continue
		}
		if k.s.must != 0 && !k.s.downBound() {
			// The same position free of the rule has every move this
			// one has: if it was searched, so is this.
			fk, fb, _ := sv.keysFree(&k.s)
			if f := k.mask; d.known(fk, fb, k.mask, &f) {
				dirty = dirty || d.lost != nil && !d.lost.Has(fk)
				continue
			}
		}
		if w != j {
			d.kids[w] = *k
			d.ord[w].score = d.ord[j].score
		}
		d.ord[w].i = int32(w)
		w++
	}
	d.kids, d.ord = d.kids[:w], d.ord[:w]
	// Insertion sort, stable: a position has few successors.
	o := d.ord[lo:w]
	for i := 1; i < len(o); i++ {
		for j := i; j > 0 && o[j].score < o[j-1].score; j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
	d.stack = append(d.stack, frame{lo: int32(lo), hi: int32(w), next: int32(lo), mask: mask, key: key, base: base, dirty: dirty})
}

// known: the position was searched through (by this search or, in a team,
// by another), or in Draw 3 positions with its layout reach every talon
// card it does between them. *fresh, mask or a part of it, loses the
// cards they reach.
func (d *dfs) known(key, base uint64, mask uint32, fresh *uint32) bool {
	if d.seen.Has(key) {
		return true
	}
	if d.tab != nil {
		return d.tab.has(key, base, mask, fresh)
	}
	if d.sv.draw != 3 {
		return d.lost != nil && d.lost.Has(key)
	}
	rest, ok := d.dom.uncovered(base, *fresh)
	*fresh = rest
	return coveredBy(rest, ok, mask)
}

// deadEnd records kid k, proved lost, as searched through with mask.
func (d *dfs) deadEnd(k *kid, mask uint32) {
	d.searched(k.key, k.base, mask)
	if d.tab != nil {
		d.seen.Remove(k.key)
	}
	if d.lost != nil {
		d.lost.Add(k.key)
	}
}

// searched records a position as searched through.
func (d *dfs) searched(key, base uint64, mask uint32) {
	switch {
	case d.tab != nil && d.tab.dom != nil:
		d.tab.dom.put(base, mask)
	case d.tab != nil:
		d.tab.done.Add(key)
	case d.sv.draw == 3:
		d.dom.put(base, mask)
	}
}

// downBound: the bound card came down from its foundation. Free of the
// rule it would go straight back up (see auto), so that position is never
// searched and looking it up is no use. (A King brought down to an empty
// column would stay, but skipping its look-up only prunes less.)
func (s *sstate) downBound() bool {
	if s.must == 0 {
		return false
	}
	k := s.must - 1
	return s.n[k] > 0 && s.fits(s.col[k][s.n[k]-1])
}

// run makes one run from the start, stopping at its share of positions or
// at maxNodes in all, and sets out when the run decides the deal.
func (d *dfs) run(maxNodes int) {
	if d.out != engine.Undecided {
		return
	}
	sv := d.sv
	k0, b0, m0 := sv.keys(&d.start)
	d.seen.Add(k0)
	d.nodes++
	d.kids, d.ord, d.stack, d.path = d.kids[:0], d.ord[:0], d.stack[:0], d.path[:0]
	d.push(&d.start, k0, b0, m0, m0)
	if d.hitWon {
		d.out = engine.Solved
		return
	}
	limit := min(d.nodes+d.budget, maxNodes)
	for len(d.stack) > 0 && (d.nodes < limit || d.finishing()) {
		top := &d.stack[len(d.stack)-1]
		if top.next >= top.hi {
			d.kids, d.ord = d.kids[:top.lo], d.ord[:top.lo]
			// Searched through: what it reaches is searched or on
			// the path.
			d.searched(top.key, top.base, top.mask)
			if d.tab != nil {
				d.seen.Remove(top.key) // now in the team's table
			}
			if d.lost != nil {
				if !top.dirty {
					d.lost.Add(top.key)
				} else if len(d.stack) > 1 {
					d.stack[len(d.stack)-2].dirty = true
				}
			}
			d.stack = d.stack[:len(d.stack)-1]
			if len(d.path) > 0 {
				d.path = d.path[:len(d.path)-1]
			}
			continue
		}
		k := &d.kids[d.ord[top.next].i]
		top.next++
		if (d.tab != nil && (d.tab.has(k.key, k.base, k.mask, &k.fresh) || k.handedDown())) || !d.seen.Add(k.key) {
			top.dirty = top.dirty || d.lost != nil && !d.lost.Has(k.key)
			continue
		}
		d.nodes++
		if sv.pause != nil && d.nodes%pauseEvery == 0 {
			sv.pause()
		}
		if d.ctl != nil {
			// A probe's Draw 1 positions count too (see drawOne).
			if d.pending++; d.pending >= tick {
				n := d.pending
				d.pending = 0
				if !d.ctl.spend(n) {
					// The path is no longer searched: a later
					// phase of the team starts again from the top.
					for _, f := range d.stack {
						d.seen.Remove(f.key)
					}
					return
				}
			}
		}
		if k.s.must == 0 && d.dead(&k.s, k.freshCards()) {
			// Lost: searched through at once. Checked here rather
			// than for every successor, since many are never reached.
			// A position after a card went up is checked too: on its
			// foundation the card is a column top only once it can come
			// down (see dead), and that proves Draw 1 deal 1585 lost at
			// 1.02 million positions instead of 1.18. A position bound by
			// must is left to its successors: that costs more checks
			// than it saves (Draw 1 deals 3650, 3700 and 1585, where most
			// are bound: 0.3-2.5% fewer positions for half as much CPU
			// again). One bound by lay is checked: on Draw 3 deal 543
			// that proves it lost at 1.56 million positions instead of
			// 1.99.
			//
			// It counts as searched through, so a position of the same
			// layout reaching no more talon cards is left out unvisited
			// (lost with a mask is lost with any mask within it, see
			// domSet).
			d.deadEnd(k, k.mask)
			continue
		}
		if d.one != nil && !k.s.won() {
			lost, n := d.one.probe(&k.s)
			d.pending += n
			if lost {
				// Lost with every talon split: searched through for
				// every talon card.
				d.deadEnd(k, ^uint32(0))
				continue
			}
		}
		d.path = append(d.path, k.m)
		if k.s.won() {
			d.out = engine.Solved
			return
		}
		// push copies the state before it appends to kids.
		d.push(&k.s, k.key, k.base, k.mask, k.fresh&k.lim)
		if d.hitWon {
			d.out = engine.Solved // a Draw 1 probe's: its path is not kept
			return
		}
	}
	if len(d.stack) == 0 {
		d.out, d.path = engine.Impossible, nil
		return
	}
	// Everything searched through is a dead end; the path is not.
	for _, f := range d.stack {
		d.seen.Remove(f.key)
	}
	d.runs++
	d.budget = restartUnit * luby(d.runs+1)
	d.noise = restartNoise
}

// luby is the i-th term (from 1) of the Luby sequence, 1 1 2 1 1 2 4 1 1
// 2 1 1 2 4 8 1...: run i of a search gets restartUnit times as many
// positions. Runs that only grow end up all long, deep below the same
// early choices, and miss wins that a short run in another order finds
// at once; this sequence keeps coming back to short runs while its long
// ones still double. A restart costs a lost deal next to nothing, as the
// positions it searched through are kept (reports/solvers.md, "Restarts
// on the Luby sequence").
func luby(i int) int {
	for {
		k := bits.Len(uint(i)) // 2^(k-1) <= i < 2^k
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		i -= 1<<(k-1) - 1
	}
}

// dead is the dead check of a position the search reaches (see deadIn).
// Twins proves a tenth to a third of the positions of some lost deals
// lost, and next to none of others', where its part of the check is
// wasted: a search that finds it proving under one in twinRare of a
// stretch of twinStretch checks leaves it out of the next twinRest
// stretches, then tries it again. Leaving it out only prunes less.
func (d *dfs) dead(s *sstate, fresh uint64) bool {
	tw := &d.twin
	if tw.rest > 0 {
		if tw.checks++; tw.checks == twinStretch {
			tw.checks, tw.rest = 0, tw.rest-1
		}
		return d.sv.deadIn(s, d.scratch, fresh, false)
	}
	dead, byTwins := d.sv.deadBy(s, d.scratch, fresh, true)
	if fresh != 0 {
		return dead // the check stopped before twins (see deadIn)
	}
	tw.checks++
	if byTwins {
		tw.proved++
	}
	if tw.checks == twinStretch {
		if tw.proved*twinRare < twinStretch {
			tw.rest = twinRest
		}
		tw.checks, tw.proved = 0, 0
	}
	return dead
}

// twinSkip is what dfs.dead keeps on how well twins pays.
type twinSkip struct {
	checks, proved, rest int
}

var (
	twinStretch = 4096
	twinRare    = 64
	twinRest    = 8
)

// handedDown: every line from the kid starts with a talon card that
// searched positions reach, ones with its own layout or ones with its
// parent's (see lim). With no talon card left (mask 0) every line is
// tableau moves alone, for which lim says nothing.
func (k *kid) handedDown() bool { return k.fresh&k.lim == 0 && k.mask != 0 }

// freshCards is the set of talon cards at the kid's fresh indices when
// they are not all of its mask, else 0: then some line is the search's to
// look at only if its first talon card is one of them (see deadIn).
func (k *kid) freshCards() uint64 {
	var cs uint64
	if k.fresh != k.mask && !freshOff {
		for m := k.fresh; m != 0; m &= m - 1 {
			cs |= 1 << k.s.talon[bits.TrailingZeros32(m)]
		}
	}
	return cs
}

// freshOff turns off what fresh leaves out, and handDownOff what lim
// does, for tests that compare.
var freshOff, handDownOff bool

// pauseEvery is how many positions a paced search visits between pauses.
const pauseEvery = 256

var (
	restartUnit  = 1000
	restartNoise = int32(64 * 8)
)
