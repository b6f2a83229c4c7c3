package hub

import (
	"slices"
	"time"
)

// Ghost racers: stored runs replayed at their pace; this runs on the
// room's goroutine.

func (r *Race) addGhost(me *member, run Run) error {
	if me.ID != r.host {
		return refuse(ErrNotHost, "Only the host, %s, can add a ghost.", r.hostName())
	}
	if r.phase != Lobby {
		return ErrAlreadyStarted
	}
	if run.Spec != r.spec {
		return refuse(ErrBadRun, "That run is of %s, not of this race's deal.", run.Spec)
	}
	if !validRun(run) {
		return ErrBadRun
	}
	if len(r.racers) >= MaxRacers {
		return refuse(ErrFull, "This race is full (%d racers).", MaxRacers)
	}
	r.ghosts++
	run.Steps = slices.Clone(run.Steps) // the caller's slice may be reused; the room replays its own
	rc := &racer{
		Person: Person{ID: "ghost-" + itoa(r.ghosts), Name: run.Name},
		ghost:  true, run: &run, here: true, total: run.Total,
	}
	r.racers = append(r.racers, rc)
	r.changed()
	return nil
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

func validRun(run Run) bool {
	if run.Total <= 0 || len(run.Steps) == 0 || len(run.Steps) > maxTimeline {
		return false
	}
	var at time.Duration
	for i, s := range run.Steps {
		p := Progress{Home: s.Home, Total: run.Total, Moves: s.Moves, Status: s.Status}
		if s.At < at || !validProgress(p) || (s.Status != Playing && i != len(run.Steps)-1) {
			return false
		}
		at = s.At
	}
	return true
}

// scheduleGhost sets the ghost's next step at its own pace from the start,
// measured from the start rather than the previous step, so a late tick
// does not delay every step after it.
func (r *Race) scheduleGhost(rc *racer) {
	if rc.next >= len(rc.run.Steps) {
		return
	}
	d := rc.run.Steps[rc.next].At - r.elapsed()
	rc.step.set(&r.loop, r.h.clock, d, func() {
		r.advanceGhost(rc, r.elapsed())
		r.scheduleGhost(rc)
		r.checkFinish()
		r.changed()
	})
}

// advanceGhost applies the ghost's steps up to race time upTo.
func (r *Race) advanceGhost(rc *racer, upTo time.Duration) {
	for rc.next < len(rc.run.Steps) && rc.run.Steps[rc.next].At <= upTo {
		s := rc.run.Steps[rc.next]
		rc.next++
		rc.home, rc.moves, rc.status, rc.time = s.Home, s.Moves, s.Status, s.At
		r.placeIfWon(rc)
	}
}
