package hub

import (
	"slices"
	"time"
)

// A race under way: the start, its clock, the racers' reports and who
// follows whom; this runs on the room's goroutine.

func (r *Race) start(me *member) error {
	if me.ID != r.host {
		return refuse(ErrNotHost, "Only the host, %s, can start the race.", r.hostName())
	}
	if r.phase != Lobby {
		return ErrAlreadyStarted
	}
	r.phase, r.count = Countdown, CountdownFrom
	r.countdown.set(&r.loop, r.h.clock, time.Second, r.tick)
	r.changed()
	return nil
}

func (r *Race) tick() {
	r.count--
	if r.count > 0 {
		r.countdown.set(&r.loop, r.h.clock, time.Second, r.tick)
		r.changed()
		return
	}
	// Everyone's clock starts here: race times are read from this instant
	// on the room's clock, not from any racer's screen.
	r.phase, r.started = Running, r.h.clock.Now()
	for _, rc := range r.racers {
		if rc.status == Ready {
			rc.status = Playing
		}
		if rc.ghost {
			r.scheduleGhost(rc)
		}
	}
	r.checkFinish()
	r.changed()
}

func (r *Race) elapsed() time.Duration {
	switch r.phase {
	case Running:
		return r.h.clock.Now().Sub(r.started)
	case Finished:
		return r.stopped
	}
	return 0
}

func (r *Race) record(rc *racer) {
	s := Step{At: rc.time, Home: rc.home, Moves: rc.moves, Status: rc.status}
	if len(rc.timeline) < maxTimeline {
		rc.timeline = append(rc.timeline, s)
	} else {
		rc.timeline[len(rc.timeline)-1] = s
	}
}

func validProgress(p Progress) bool {
	switch {
	case p.Total <= 0, p.Home < 0, p.Home > p.Total, p.Moves < 0:
		return false
	case p.Status == Won:
		return p.Home == p.Total
	}
	return p.Status == Playing || p.Status == Over || p.Status == GaveUp
}

func (r *Race) report(me *member, p Progress) error {
	rc := r.racer(me.ID)
	if rc == nil || me.role != Racer {
		return ErrNotRacer
	}
	switch r.phase {
	case Lobby, Countdown:
		return refuse(ErrNotRunning, "The race has not started yet.")
	case Finished:
		return refuse(ErrNotRunning, "The race is over.")
	}
	if rc.status != Playing {
		return ErrDone
	}
	if !validProgress(p) {
		return ErrBadProgress
	}
	rc.home, rc.total, rc.moves, rc.status, rc.score = p.Home, p.Total, p.Moves, p.Status, p.Score
	rc.time = r.elapsed()
	if p.Save != nil {
		rc.save = p.Save
	}
	if p.Board != nil {
		rc.board = p.Board
	}
	r.record(rc)
	r.placeIfWon(rc)
	r.checkFinish()
	r.changed()
	return nil
}

func (r *Race) placeIfWon(rc *racer) {
	if rc.status != Won || rc.place != 0 {
		return
	}
	n := 0
	for _, x := range r.racers {
		if x.status == Won && x.place > 0 {
			n++
		}
	}
	rc.place = n + 1
}

func (r *Race) follow(me *member, id string) error {
	if id != "" && !slices.ContainsFunc(r.racers, func(x *racer) bool { return x.ID == id }) {
		return ErrNoRacer
	}
	me.follow = id
	// Only this member's view changes, so only they are sent it; the
	// version still moves, so that it grows with every state anyone gets.
	r.version++
	r.base.Version = r.version
	me.out.Put(r.stateFor(me))
	return nil
}
