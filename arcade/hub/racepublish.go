package hub

// What a race pushes to its members; this runs on the room's goroutine.

// changed pushes the room's new state to every member. The shared part is
// built once; each member's copy differs only in a few fields.
func (r *Race) changed() {
	r.version++
	order := r.order()
	standings := make([]Standing, len(order))
	for i, rc := range order {
		standings[i] = Standing{
			Person: rc.Person, Ghost: rc.ghost, Host: !rc.ghost && rc.ID == r.host, Here: rc.here,
			Status: rc.status, Home: rc.home, Total: rc.total, Moves: rc.moves, Time: rc.time, Place: rc.place,
		}
	}
	var watchers []Person
	for _, m := range r.members {
		if m.role == Watcher {
			watchers = append(watchers, m.Person)
		}
	}
	r.base = RaceState{
		Code: r.code, Spec: r.spec, Ranked: r.ranked, Phase: r.phase, Count: r.count,
		Elapsed: r.elapsed(), Host: r.host, Racers: standings, Watchers: watchers, Version: r.version,
		Said: r.talk.said,
	}
	for _, m := range r.members {
		m.out.Put(r.stateFor(m))
	}
}

func (r *Race) stateFor(m *member) RaceState {
	s := r.base
	s.You, s.Role = m.ID, m.role
	if m.mute {
		s.Said = nil
	}
	if m.follow != "" {
		s.Following = m.follow
		for _, rc := range r.racers {
			if rc.ID == m.follow {
				s.Board = rc.board
			}
		}
	}
	return s
}
