package hub

import (
	"slices"
)

// Joining and leaving a race; this runs on the room's goroutine.

func (r *Race) racer(id string) *racer {
	for _, rc := range r.racers {
		if !rc.ghost && rc.ID == id {
			return rc
		}
	}
	return nil
}

func (r *Race) join(p Person, role Role, out *outbox[RaceState]) (*RaceMember, error) {
	if role != Racer {
		role = Watcher
	}
	rc := r.racer(p.ID)
	prev := slices.IndexFunc(r.members, func(x *member) bool { return x.ID == p.ID })
	// Refuse before taking over, so a failed join leaves the older session
	// where it was.
	switch {
	case rc != nil:
		role = Racer
	case role == Racer && r.phase == Running:
		return nil, ErrStarted
	case role == Racer && r.phase == Finished:
		return nil, refuse(ErrStarted, "This race is over; you can see its results as a watcher.")
	case role == Racer && len(r.racers) >= MaxRacers:
		return nil, refuse(ErrFull, "This race is full (%d racers); you can watch it instead.", MaxRacers)
	case role == Watcher && prev < 0 && r.watchers() >= MaxWatchers:
		return nil, ErrWatchersFull
	}
	if prev >= 0 {
		// The same account from another session: the newer one takes over,
		// as a player whose old connection has not yet timed out expects.
		old := r.members[prev]
		r.members = slices.Delete(r.members, prev, prev+1)
		r.version++ // the closing state is a change for the old screen like any other
		st := r.stateFor(old)
		st.Phase, st.Reason, st.Version = Closed, ErrReplaced.Error(), r.version
		old.out.Put(st)
		old.out.Close()
	}
	var save []byte
	switch {
	case rc != nil:
		rc.Person, rc.here = p, true
		rc.drop.stop()
		rc.counted = false
		if rc.status == Dropped {
			if r.phase == Running {
				rc.status = Playing
			} else if r.phase == Countdown {
				rc.status = Ready
			}
		}
		save = rc.save
	case role == Racer:
		r.racers = append(r.racers, &racer{Person: p, here: true})
		if r.host == "" {
			r.host = p.ID
		}
	}
	r.tokens++
	me := &member{Person: p, role: role, token: r.tokens, out: out}
	r.members = append(r.members, me)
	r.checkEmpty()
	r.changed()
	return &RaceMember{race: r, person: p, token: me.token, role: role, save: save}, nil
}

func (r *Race) watchers() int {
	n := 0
	for _, m := range r.members {
		if m.role == Watcher {
			n++
		}
	}
	return n
}

func (r *Race) leave(me *member, drop bool) error {
	r.members = slices.DeleteFunc(r.members, func(x *member) bool { return x == me })
	me.out.Close()
	if rc := r.racer(me.ID); rc != nil && me.role == Racer {
		rc.here = false
		switch {
		case r.phase == Lobby, r.phase == Countdown && !drop:
			r.racers = slices.DeleteFunc(r.racers, func(x *racer) bool { return x == rc })
		case r.phase == Countdown || r.phase == Running:
			if drop {
				if rc.status == Ready || rc.status == Playing {
					rc.status = Dropped
					rc.drop.set(&r.loop, r.h.clock, r.h.grace, func() {
						rc.counted = true
						r.checkFinish()
						r.changed()
					})
				}
			} else if rc.status == Playing || rc.status == Dropped {
				rc.status = GaveUp
				rc.time = r.elapsed()
				r.record(rc)
			}
		}
		if r.host == me.ID {
			r.host = ""
			for _, x := range r.racers {
				if !x.ghost && x.here {
					r.host = x.ID
					break
				}
			}
		}
		if r.phase == Countdown && r.humans() == 0 {
			r.countdown.stop()
			r.phase, r.count = Lobby, 0
		}
	}
	r.checkFinish()
	r.checkEmpty()
	r.changed()
	return nil
}

func (r *Race) humans() int {
	n := 0
	for _, rc := range r.racers {
		if !rc.ghost {
			n++
		}
	}
	return n
}

func (r *Race) hostName() string {
	if rc := r.racer(r.host); rc != nil {
		return rc.Name
	}
	return "nobody yet"
}
