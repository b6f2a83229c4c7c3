package klondike

import "sshuffle/engine"

// Draw 1 probes. A position lost in Draw 1 is lost in Draw 3 whatever its
// talon split (see searchDraw3), and most positions a Draw 3 search visits
// on some lost deals are lost in Draw 1 with a proof of a few positions,
// while their Draw 3 subtrees run to thousands: on deal 9626, one search,
// 95% of them. So a Draw 3 search of a team asks a small Draw 1 search of
// each position it is about to expand (a probe), and a position that probe
// proves lost is searched through at once, for every talon split.
//
// A probe gives up after probeBudget positions, so alone it proves only
// small cases. What makes it pay is what probes keep for one another, in
// two tables the team shares:
//   - lost: Draw 1 positions proved lost. A probe that gives up has still
//     proved some (see dfs.lost): their proofs stand alone, and later
//     probes stop at them.
//   - won: positions on the line to a Draw 1 win. A probe that reaches one
//     has won, which says nothing about Draw 3, and stops.
//
// A probe's Draw 1 positions count in the team's budget. A search judges
// its probes by stretches of probeStretch: one that cost over probeCost
// Draw 1 positions for each position proved lost is followed by a rest
// with no probes, of twice those positions (at least probeRest), doubled
// for each such stretch in a row up to eight times. On deal 125 the
// positions are won in Draw 1 almost throughout, and on some deals the
// Draw 1 proofs are too long for a probe (reports/solvers.md, "Draw 1
// probes").
//
// A team's searches only: the single search, whose positions rate the
// daily deals, is as it was.
type drawOne struct {
	lost, won *engine.SyncSet
	in        *dfs // the Draw 1 search, started again for each probe
	probes    int
	proved    int
	spent     int // Draw 1 positions of the stretch's probes
	rest      int // positions to leave unprobed
	fails     int // stretches in a row that did not pay
}

var (
	probeBudget  = 300
	probeStretch = 256
	probeCost    = 400
	probeRest    = 8192
)

// probeOff turns probes off, for tests that compare.
var probeOff bool

func newDrawOne(lost, won *engine.SyncSet) *drawOne {
	in := newDFS(&solver{draw: 1}, sstate{})
	in.lost, in.won = lost, won
	return &drawOne{lost: lost, won: won, in: in}
}

// probe: s is lost in Draw 1. n is the Draw 1 positions it visited.
func (o *drawOne) probe(s *sstate) (lost bool, n int) {
	if o.rest > 0 {
		o.rest--
		return false, 0
	}
	in := o.in
	q := *s
	q.must, q.lay, q.cameDown = 0, 0, true
	in.seen.Reset()
	in.begin(q)
	out, _, n := in.upTo(probeBudget)
	switch out {
	case engine.Solved:
		for _, f := range in.stack {
			o.won.Add(f.key)
		}
	case engine.Impossible:
		// Run out: every position it visited is lost, those it kept
		// apart as dirty too (what they left out was searched after).
		in.seen.Each(o.lost.Add)
		lost = true
		o.proved++
	}
	o.spent += n
	if o.probes++; o.probes == probeStretch {
		if o.spent > o.proved*probeCost {
			o.rest = max(probeRest, 2*o.spent) << min(o.fails, 3)
			o.fails++
		} else {
			o.fails = 0
		}
		o.probes, o.proved, o.spent = 0, 0, 0
	}
	return lost, n
}
