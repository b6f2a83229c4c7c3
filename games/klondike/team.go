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
// (engine.SyncSet, syncDom). In Draw 3 the Draw 1 search of the deal
// (see searchDraw3), if still undecided, goes first as a team of its own,
// and the Draw 3 searches go on once it wins (see searchTeam).
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

// control is the budget and stop signal of a team. A team runs in
// phases (see runTo): a phase ends at max positions, the team's budget at
// hard. Once a search has run out (finish), the team runs on to hard:
// its searches may not restart.
type control struct {
	nodes  atomic.Int64
	max    int64
	hard   int64
	stop   atomic.Bool
	finish atomic.Bool // a search ran out: no more restarts
}

// tick is how many positions a search visits between looking at the
// team's budget.
const tick = 1024

// spend counts n more positions and reports whether to go on.
func (c *control) spend(n int) bool {
	if v := c.nodes.Add(int64(n)); v >= c.max && (v >= c.hard || !c.finish.Load()) {
		c.stop.Store(true)
	}
	return !c.stop.Load()
}

// tables are what the searches of a team share (not the Draw 1 search of
// a Draw 3 deal: its positions are another game's). A Draw 1 team records
// the positions searched through in done; a Draw 3 team only in dom, which
// holds each of them too (its base with a mask that covers its own), so a
// second table would be one more cache miss a look-up for nothing.
type tables struct {
	done *engine.SyncSet // Draw 1
	dom  *syncDom        // Draw 3
}

// has: a position searched through by the team, or in Draw 3 positions
// with the same layout reaching every talon card it does between them
// (*fresh loses the cards they reach, see dfs.known).
func (t *tables) has(key, base uint64, mask uint32, fresh *uint32) bool {
	if t.dom != nil {
		rest, ok := t.dom.uncovered(base, *fresh)
		*fresh = rest
		return coveredBy(rest, ok, mask)
	}
	return t.done.Has(key)
}

func (d *dfs) finishing() bool { return d.ctl != nil && d.ctl.finish.Load() }

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
	t := &syncDom{mask: uint64(size - 1)}
	t.slots = engine.BigTable[syncDomEntry](t, size)
	return t
}

// reset empties the table for reuse; no search may use it meanwhile.
func (t *syncDom) reset() { clear(t.slots) }

// teamTables are a team's shared tables, kept for the next team of the
// process once a deal is decided: a deal that reaches a team would
// otherwise get tens of MB of fresh memory, zeroed by the kernel page by
// page (a fifth of a range's CPU went to system time), and the collector
// would give it back to the system after, to be faulted in again.
type teamTables struct {
	room  int
	draw3 bool
	done  *engine.SyncSet // Draw 1
	dom   *syncDom        // Draw 3
	// Draw 3: what its searches' Draw 1 probes proved lost and won
	// (probe.go).
	lost, won *engine.SyncSet
}

// spareTables holds the tables of teams that are done, the latest
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
		if s.room == room && s.draw3 == draw3 {
			tt = s
			spareTables.free = append(spareTables.free[:i], spareTables.free[i+1:]...)
			break
		}
	}
	spareTables.mu.Unlock()
	switch {
	case tt == nil && draw3:
		// About three bases for every four positions, and a slot is
		// twice done's: at two-thirds load it is half done's size (32
		// MB), which misses the caches less often, more than the
		// longer probes cost (four hard deals, team of two: 9.6 s and
		// 8.8 s against 11.4 s and 10.1 s at under half load).
		tt = &teamTables{room: room, draw3: true, dom: newSyncDom(room / 2),
			lost: engine.NewSyncSet(room / 4), won: engine.NewSyncSet(room / 8)}
	case tt == nil:
		tt = &teamTables{room: room, done: engine.NewSyncSet(room)}
	case draw3:
		tt.dom.reset()
		tt.lost.Reset()
		tt.won.Reset()
	default:
		tt.done.Reset()
	}
	return tt
}

// giveBack keeps tt for a later team; no search of its team may still
// be running.
func giveBack(tt *teamTables) {
	spareTables.mu.Lock()
	if len(spareTables.free) == maxSpareTables {
		// The oldest goes: the next team is most like the last ones.
		spareTables.free = append(spareTables.free[:0], spareTables.free[1:]...)
	}
	spareTables.free = append(spareTables.free, tt)
	spareTables.mu.Unlock()
}

const syncDomProbe = 64

// uncovered is domSet.uncovered for the team.
func (t *syncDom) uncovered(base uint64, mask uint32) (uint32, bool) {
	k := fixKey(base)
	i := k & t.mask
	for range syncDomProbe {
		switch t.slots[i].k.Load() {
		case 0:
			return mask, false
		case k:
			return mask &^ uint32(t.slots[i].m.Load()), true
		}
		i = (i + 1) & t.mask
	}
	return mask, false
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
	sv       *solver
	start    sstate
	ctl      control
	tab      tables
	tt       *teamTables
	searches []*dfs
	mu       sync.Mutex
	active   int  // searches not run out
	closed   bool // decided
	out      engine.Outcome
	path     []smove
}

// tableRoom is the most positions the shared tables make room for: a
// search beyond it shares less (positions not recorded), never wrongly.
const tableRoom = 1 << 22

// teamAfter is how many positions a deal gets on one goroutine before a
// team takes over: most deals are decided by then, and emptying a team's
// shared tables (tens of MB, kept from the team before) would cost them
// more time than their whole search. Draw 3 deals 1-10000, team of two,
// idle: at 10k the range took 2m18s and 9981 deals were decided within
// 2 s, at 50k 2m39s and 9979.
var teamAfter = 10_000

// searchTeam searches like search (Draw 1) or searchDraw3 (Draw 3), on
// threads goroutines, at least 2, once the first teamAfter positions have
// not decided it. maxNodes counts the positions of all of them.
//
// In Draw 3 the Draw 1 search, if still undecided by then, becomes a team
// of its own, and the two teams take turns on every goroutine, the Draw 1
// one getting drawOneShare of the positions until it decides. Its proofs
// are the short way to lose a Draw 3 deal: of the Draw 3 deals of 1-10000
// that a team of two left undecided at 1.8 million positions with one
// goroutine on each search, half were lost in Draw 1, ten of them within
// 1.8 million positions. Turns rather than one after the other, since
// some deals lost in Draw 1 only after millions of positions are proved
// lost in Draw 3 within a few hundred thousand.
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
	t := sv.newTeam(first, start, maxNodes, threads)
	defer t.release()
	if d1 == nil || d1.out != engine.Undecided {
		n = t.runTo(n, maxNodes, maxNodes)
		return t.out, t.path, n
	}
	t1 := d1.sv.newTeam(d1, start, maxNodes, threads)
	defer t1.release()
	for n < maxNodes {
		if !t1.closed {
			n = t1.runTo(n, min(n+turnLength*drawOneShare, maxNodes), maxNodes)
			if t1.out == engine.Impossible {
				return engine.Impossible, nil, n
			}
			// Won in Draw 1, which says nothing about Draw 3, or its
			// turn is over.
		}
		end := maxNodes
		if !t1.closed {
			end = min(n+turnLength, maxNodes)
		}
		n = t.runTo(n, end, maxNodes)
		if t.closed {
			return t.out, t.path, n
		}
	}
	return engine.Undecided, nil, n
}

// A Draw 3 team's turn is turnLength positions, its Draw 1 team's
// drawOneShare times as many. On the 62 Draw 3 deals of 1-10000 a team of
// two left undecided at 1.8 million positions with one goroutine on each
// search, and six it decided that way, at that budget: with the Draw 1
// team alone until it decides, 14 of the 68 are decided, but of the six
// only one (four are lost with short Draw 3 proofs and Draw 1 proofs of
// millions of positions); in turns of 2:1, 8; of 3:1, 12, two of the six
// among them.
var (
	turnLength   = 100_000
	drawOneShare = 3
)

// newTeam makes a team of threads searches that goes on from search
// first, its tables with room for a budget of maxNodes positions.
func (sv *solver) newTeam(first *dfs, start sstate, maxNodes, threads int) *team {
	t := &team{sv: sv, start: start, out: engine.Undecided, active: threads}
	// done is the only record of what a search has searched through
	// (see dfs.seen), so it gets room at under half load.
	t.tt = takeTables(min(maxNodes, tableRoom), sv.draw == 3)
	t.tab.done, t.tab.dom = t.tt.done, t.tt.dom
	// What the first search has searched through (a search between runs
	// holds no path) is the team's to start with: in Draw 3 its dominance
	// table holds all of it.
	if sv.draw == 3 {
		for _, e := range first.dom.slots {
			if e.k != 0 {
				t.tab.dom.put(e.k, e.m)
			}
		}
	} else {
		first.seen.Each(t.tab.done.Add)
	}
	first.dom = nil
	first.seen = engine.NewSeenSet(1 << 10)
	first.ctl, first.tab = &t.ctl, &t.tab
	t.probe(first)
	t.searches = append(t.searches, first)
	for id := 2; id <= threads; id++ {
		t.searches = append(t.searches, t.newSearch(id))
	}
	return t
}

// release gives the team's tables to a later team; it must not run again.
func (t *team) release() { giveBack(t.tt) }

// runTo runs the team's searches, n positions having been visited in all,
// until the team decides or n reaches end (or, once a search has run out,
// hard). It gives the new n.
//
// A turn that ends leaves every search as between two of its runs: what
// it searched through stays searched, and its path is forgotten, so the
// next turn restarts it from the top, as its own budget would.
func (t *team) runTo(n, end, hard int) int {
	if t.closed {
		return n
	}
	t.ctl.nodes.Store(int64(n))
	t.ctl.max, t.ctl.hard = int64(end), int64(hard)
	t.ctl.stop.Store(false)
	var wg sync.WaitGroup
	for _, d := range t.searches {
		if d.out == engine.Undecided {
			wg.Go(func() { t.work(d) })
		}
	}
	wg.Wait()
	return int(t.ctl.nodes.Load())
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
	t.probe(d)
	return d
}

// probe gives a Draw 3 search of the team its Draw 1 probe.
func (t *team) probe(d *dfs) {
	if t.sv.draw == 3 && !probeOff {
		d.one = newDrawOne(t.tt.lost, t.tt.won)
	}
}

// work runs search d of the team until the team stops.
func (t *team) work(d *dfs) {
	for d.out == engine.Undecided && !t.ctl.stop.Load() {
		d.run(math.MaxInt)
	}
	t.ctl.nodes.Add(int64(d.pending))
	d.pending = 0
	switch d.out {
	case engine.Solved:
		t.decide(engine.Solved, d.path)
	case engine.Impossible:
		t.ctl.finish.Store(true)
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
