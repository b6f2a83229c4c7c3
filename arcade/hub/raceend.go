package hub

import (
	"cmp"
	"slices"
	"time"
)

// The end of a race and of its room; this runs on the room's goroutine.

// checkFinish ends the race once no human racer can still move: each has
// won, ended, given up, or been dropped for longer than the grace.
func (r *Race) checkFinish() {
	if r.phase != Running {
		return
	}
	for _, rc := range r.racers {
		if rc.ghost {
			continue
		}
		if rc.status == Playing || rc.status == Ready || (rc.status == Dropped && !rc.counted) {
			return
		}
	}
	r.finish()
}

func (r *Race) finish() {
	r.stopped = r.elapsed()
	r.phase = Finished
	for _, rc := range r.racers {
		rc.drop.stop()
		if rc.ghost {
			// Nobody is left to race the ghost, but it still takes the place
			// its run earned: play it out to the end.
			rc.step.stop()
			r.advanceGhost(rc, time.Duration(1<<62))
			if rc.status == Playing || rc.status == Ready {
				rc.status = GaveUp
			}
		}
	}
	order := r.order()
	place := 0
	for _, rc := range order {
		if rc.status == Won || rc.status == Over {
			place++
			rc.place = place
		}
	}
	r.changed()
	res := Result{Code: r.code, Spec: r.spec, Ranked: r.ranked, Started: r.started}
	for _, rc := range order {
		rr := RacerResult{
			Person: rc.Person, Ghost: rc.ghost, Place: rc.place, Status: rc.status,
			Time: rc.time, Moves: rc.moves, Score: rc.score, Home: rc.home, Total: rc.total,
		}
		if !rc.ghost {
			rr.Timeline, rr.Save = rc.timeline, rc.save
		}
		res.Racers = append(res.Racers, rr)
	}
	if r.h.onResult != nil {
		r.h.onResult(res)
	}
	r.checkEmpty()
}

// order is the standing: winners by time (then by who reported first),
// then those still playing or ended without a win by cards home, then
// those waiting in the lobby, then those out; joining order breaks ties.
func (r *Race) order() []*racer {
	rank := func(s Status) int {
		switch s {
		case Won:
			return 0
		case Playing, Over:
			return 1
		case Ready:
			return 2
		}
		return 3
	}
	out := slices.Clone(r.racers)
	slices.SortStableFunc(out, func(a, b *racer) int {
		if c := cmp.Compare(rank(a.status), rank(b.status)); c != 0 {
			return c
		}
		switch a.status {
		case Won:
			return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.place, b.place))
		case Ready:
			return 0
		}
		return cmp.Or(cmp.Compare(b.home, a.home), cmp.Compare(a.time, b.time))
	})
	return out
}

// checkEmpty closes a finished room nobody is in, and gives any other room
// nobody is in a grace period to be rejoined.
func (r *Race) checkEmpty() {
	if len(r.members) > 0 {
		r.empty.stop()
		return
	}
	if r.phase == Finished {
		r.end("")
		return
	}
	if !r.empty.pending() {
		r.empty.set(&r.loop, r.h.clock, r.h.grace, func() {
			if len(r.members) == 0 {
				if r.phase == Running {
					r.finish()
				}
				r.end("")
			}
		})
	}
}

func (r *Race) end(reason string) {
	if r.ended {
		return
	}
	r.ended = true
	r.countdown.stop()
	r.empty.stop()
	r.talk.shown.stop()
	for _, rc := range r.racers {
		rc.drop.stop()
		rc.step.stop()
	}
	r.version++
	for _, m := range r.members {
		st := r.stateFor(m)
		st.Phase, st.Reason, st.Version = Closed, reason, r.version
		m.out.Put(st)
		m.out.Close()
	}
	r.members = nil
	r.h.unregister(r.code)
}
