package klondike

import (
	"math"
	"sync"
	"sync/atomic"

	"sshuffle/engine"
)

// A team searches one deal on several goroutines at once, with searches
// that share what each has searched through: each keeps its own path, and
// a position searched through by one is a dead end for all
// (engine.SyncSet, syncDom). In Draw 3 one goroutine first runs the
// Draw 1 search of the deal (see searchDraw3), and joins the others once
// that search wins.
//
// Why that is sound: as in one depth-first search with restarts, a
// position counts as searched through once each of its successors is
// searched through or lies on the path of the search that searched it;
// a search never skips a position for lying on another's path. Once one
// search has run out of positions, no search restarts any more (that
// would forget its path while positions searched through rely on it), and
// the deal is lost when every search of the team has run out. A win by
// any search is a line of legal moves, whatever the others did.
//
// Two goroutines visit about as many positions in all as one search does,
// in a little over half the time (reports/solvers.md).

// control is the budget and stop signal of a team.
type control struct {
	nodes atomic.Int64
	max   int64
	stop  atomic.Bool
}

// tick is how many positions a search visits between looking at the
// team's budget.
const tick = 1024

// spend counts n more positions and reports whether to go on.
func (c *control) spend(n int) bool {
	if c.nodes.Add(int64(n)) >= c.max {
		c.stop.Store(true)
	}
	return !c.stop.Load()
}

// tables are what the searches of a team share (not the Draw 1 search of
// a Draw 3 deal: its positions are another game's).
type tables struct {
	done   *engine.SyncSet
	dom    *syncDom
	finish atomic.Bool // a search ran out: no more restarts
}

func (d *dfs) finishing() bool { return d.tab != nil && d.tab.finish.Load() }

// syncDom is domSet for several goroutines at once: for a base, the union
// of the reach masks of the positions with that base searched through.
// A reader may find a base whose mask is not stored yet and read 0; that
// only says a position reaching no talon card is covered, which any
// searched one with the base does.
type syncDom struct {
	slots []syncDomEntry
	mask  uint64
}

type syncDomEntry struct{ k, m atomic.Uint64 }

func newSyncDom(capacity int) *syncDom {
	size := engine.TableSize(capacity)
	return &syncDom{slots: make([]syncDomEntry, size), mask: uint64(size - 1)}
}

// reset empties the table for reuse; no search may use it meanwhile.
func (t *syncDom) reset() { clear(t.slots) }

// teamTables are a team's shared tables, kept for the next team of the
// process once a deal is decided: a deal that reaches a team would
// otherwise get tens of MB of fresh memory, zeroed by the kernel page by
// page (a fifth of a range's CPU went to system time), and the collector
// would give it back to the system after, to be faulted in again.
type teamTables struct {
	room int
	done *engine.SyncSet
	dom  *syncDom // Draw 3 only; made by the first Draw 3 team
}

// spareTables holds the tables of teams that are done, at most
// maxSpareTables of them (one per team that ran at once, as a rule).
var spareTables struct {
	mu   sync.Mutex
	free []*teamTables
}

const maxSpareTables = 4

// takeTables gives a team empty tables with room for room positions,
// reused if a team before left some of that size.
func takeTables(room int, draw3 bool) *teamTables {
	var tt *teamTables
	spareTables.mu.Lock()
	for i, s := range spareTables.free {
		if s.room == room {
			tt = s
			spareTables.free = append(spareTables.free[:i], spareTables.free[i+1:]...)
			break
		}
	}
	spareTables.mu.Unlock()
	if tt == nil {
		tt = &teamTables{room: room, done: engine.NewSyncSet(room)}
	} else {
		tt.done.Reset()
	}
	if draw3 {
		if tt.dom == nil {
			tt.dom = newSyncDom(room / 2)
		} else {
			tt.dom.reset()
		}
	}
	return tt
}

// giveBack keeps tt for a later team; no search of its team may still
// be running.
func giveBack(tt *teamTables) {
	spareTables.mu.Lock()
	if len(spareTables.free) < maxSpareTables {
		spareTables.free = append(spareTables.free, tt)
	}
	spareTables.mu.Unlock()
}

const syncDomProbe = 64

func (t *syncDom) covers(base uint64, mask uint32) bool {
	k := fixKey(base)
	i := k & t.mask
	for range syncDomProbe {
		switch t.slots[i].k.Load() {
		case 0:
			return false
		case k:
			return uint64(mask)&^t.slots[i].m.Load() == 0
		}
		i = (i + 1) & t.mask
	}
	return false
}

// put adds mask to its base's union; a base that finds no slot within
// the probe is not recorded.
func (t *syncDom) put(base uint64, mask uint32) {
	k := fixKey(base)
	i := k & t.mask
	for range syncDomProbe {
		e := &t.slots[i]
		v := e.k.Load()
		if v == 0 && e.k.CompareAndSwap(0, k) {
			v = k
		} else if v == 0 {
			v = e.k.Load()
		}
		if v == k {
			for {
				old := e.m.Load()
				if uint64(mask)&^old == 0 || e.m.CompareAndSwap(old, old|uint64(mask)) {
					return
				}
			}
		}
		i = (i + 1) & t.mask
	}
}

// team is one search of a deal on several goroutines.
type team struct {
	sv     *solver
	start  sstate
	ctl    control
	tab    tables
	mu     sync.Mutex
	active int  // searches running that share the tables
	closed bool // decided: no search may join
	out    engine.Outcome
	path   []smove
}

// tableRoom is the most positions the shared tables make room for: a
// search beyond it shares less (positions not recorded), never wrongly.
const tableRoom = 1 << 22

// teamAfter is how many positions a deal gets on one goroutine before a
// team takes over: most deals are decided by then, and the shared tables
// of a team (tens of MB, zeroed) would cost them more time than their
// whole search.
var teamAfter = 50_000

// searchTeam searches like search (Draw 1) or searchDraw3 (Draw 3), on
// threads goroutines, at least 2, once the first teamAfter positions have
// not decided it; in Draw 3 the Draw 1 search takes one of them and turns
// to Draw 3 once it wins. maxNodes counts the positions of all of them.
func (sv *solver) searchTeam(start sstate, maxNodes, threads int) (engine.Outcome, []smove, int) {
	solo := min(teamAfter, maxNodes)
	first := newDFS(sv, start)
	var d1 *dfs
	var out engine.Outcome
	var path []smove
	var n int
	if sv.draw == 3 {
		d1 = newDFS(&solver{draw: 1}, start)
		out, path, n = turns(first, d1, solo)
	} else {
		out, path, n = first.upTo(solo)
	}
	if out != engine.Undecided || n >= maxNodes {
		return out, path, n
	}

	t := &team{sv: sv, start: start, out: engine.Undecided}
	t.ctl.max = int64(maxNodes)
	t.ctl.nodes.Store(int64(n))
	room := min(maxNodes, tableRoom)
	// done is the only record of what a search has searched through
	// (see dfs.seen), so it gets room at under half load.
	tt := takeTables(room, sv.draw == 3)
	defer giveBack(tt)
	t.tab.done, t.tab.dom = tt.done, tt.dom
	// What the first search has searched through (a search between runs
	// holds no path) is the team's to start with.
	first.seen.Each(t.tab.done.Add)
	if sv.draw == 3 {
		for _, e := range first.dom.slots {
			if e.k != 0 {
				t.tab.dom.put(e.k, e.m)
			}
		}
	}
	first.dom = nil
	first.seen = engine.NewSeenSet(1 << 10)
	first.ctl, first.tab = &t.ctl, &t.tab

	var wg sync.WaitGroup
	searches := threads
	if sv.draw == 3 && d1.out == engine.Undecided {
		searches--
	}
	t.active = searches
	for id := 1; id <= searches; id++ {
		d := first
		if id > 1 {
			d = t.newSearch(id)
		}
		wg.Go(func() { t.work(d) })
	}
	if searches == threads {
		wg.Wait()
		return t.out, t.path, int(t.ctl.nodes.Load())
	}
	wg.Go(func() {
		d1.ctl = &t.ctl
		// Its own table is the only one it has: sized for a share of
		// the budget at once rather than grown by doubling from the
		// few thousand positions of its turns, each doubling rehashing
		// every key into fresh memory.
		seen := engine.NewSeenSet(room / threads)
		d1.seen.Each(func(k uint64) { seen.Add(k) })
		d1.seen = seen
		for d1.out == engine.Undecided && !t.ctl.stop.Load() {
			d1.run(math.MaxInt)
		}
		t.ctl.nodes.Add(int64(d1.pending))
		switch d1.out {
		case engine.Impossible:
			t.decide(engine.Impossible, nil)
		case engine.Solved:
			// Says nothing about Draw 3: help the Draw 3 searches.
			t.mu.Lock()
			join := !t.closed
			if join {
				t.active++
			}
			t.mu.Unlock()
			if join {
				t.work(t.newSearch(threads))
			}
		}
	})
	wg.Wait()
	return t.out, t.path, int(t.ctl.nodes.Load())
}

// newSearch makes search number id of the team. Different searches
// try moves in different orders, so that they part ways at once instead
// of searching the same lines side by side.
func (t *team) newSearch(id int) *dfs {
	d := newDFS(t.sv, t.start)
	d.dom = nil
	d.ctl, d.tab = &t.ctl, &t.tab
	d.rng ^= uint64(id) * 0x9e3779b97f4a7c15
	d.noise = restartNoise
	return d
}

// work runs search d of the team until the team stops.
func (t *team) work(d *dfs) {
	for d.out == engine.Undecided && !t.ctl.stop.Load() {
		d.run(math.MaxInt)
	}
	t.ctl.nodes.Add(int64(d.pending))
	switch d.out {
	case engine.Solved:
		t.decide(engine.Solved, d.path)
	case engine.Impossible:
		t.tab.finish.Store(true)
		t.mu.Lock()
		t.active--
		last := t.active == 0
		t.mu.Unlock()
		if last {
			t.decide(engine.Impossible, nil)
		}
	}
}

// decide settles the team's outcome, if not already settled, and stops it.
func (t *team) decide(out engine.Outcome, path []smove) {
	t.mu.Lock()
	if !t.closed {
		t.closed, t.out, t.path = true, out, path
	}
	t.mu.Unlock()
	t.ctl.stop.Store(true)
}
