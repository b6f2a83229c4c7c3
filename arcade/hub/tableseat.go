package hub

import (
	"slices"
	"strconv"
	"time"

	"sshuffle/engine"
)

// Seating: who sits where, who hosts, and what happens to a seat when its
// person leaves, drops or does not come back. Everything here runs on the
// table's goroutine.

func (t *Table) seatOf(id string) int {
	for i, s := range t.seats {
		if s.person.ID == id && !s.gone {
			return i
		}
	}
	return -1
}

// name is what the table calls seat everywhere: its person's name (kept
// when a computer plays the seat for them), else its computer player's
// name, from the seat and strength alone so that it outlives a restart
// and a rematch.
func (t *Table) name(seat int) string {
	if seat < 0 || seat >= len(t.seats) {
		return "nobody"
	}
	s := t.seats[seat]
	if n := s.person.Name; n != "" {
		return n
	}
	if s.computer != "" {
		return engine.ComputerName(s.computer, seat)
	}
	return "seat " + strconv.Itoa(seat+1)
}

func (t *Table) names() []string {
	out := make([]string, len(t.seats))
	for i := range t.seats {
		out[i] = t.name(i)
	}
	return out
}

func (t *Table) watchers() int {
	n := 0
	for _, m := range t.members {
		if m.seat == Watch {
			n++
		}
	}
	return n
}

func (t *Table) join(p Person, want int, out *outbox[TableState]) (*TableMember, error) {
	seat := t.seatOf(p.ID)
	prev := slices.IndexFunc(t.members, func(x *tmember) bool { return x.ID == p.ID })
	if seat < 0 {
		switch {
		case want == Watch:
			if prev < 0 && t.watchers() >= MaxWatchers {
				return nil, refuse(ErrWatchersFull, "This table has as many watchers as it can take.")
			}
			seat = Watch
		case t.phase != TableSeating:
			return nil, refuse(ErrTableStarted, "This table has started; you can watch it instead.")
		case want == AnySeat:
			seat = t.freeSeat(p.ID)
			if seat < 0 {
				return nil, refuse(ErrTableFull, "Every seat at this table is taken; you can watch instead.")
			}
		case want < 0 || want >= len(t.seats):
			return nil, refuse(ErrNoSeat, "This table has seats 1 to %d.", len(t.seats))
		default:
			s := t.seats[want]
			switch {
			case s.computer != "":
				return nil, refuse(ErrSeatTaken, "Seat %d is %s's, a computer player.", want+1, t.name(want))
			case s.person.ID != "":
				return nil, refuse(ErrSeatTaken, "%s sits in seat %d.", s.person.Name, want+1)
			case s.plan.Reserved.ID != "" && s.plan.Reserved.ID != p.ID:
				return nil, refuse(ErrSeatTaken, "Seat %d is kept for %s.", want+1, s.plan.Reserved.Name)
			}
			seat = want
		}
	}
	if prev >= 0 {
		// The same account from another session: the newer one takes
		// over, as a player whose old connection has not yet timed out
		// expects.
		old := t.members[prev]
		t.members = slices.Delete(t.members, prev, prev+1)
		t.version++
		st := t.stateFor(old, t.shared())
		st.Phase, st.Reason = TableClosed, ErrReplaced.Error()
		old.out.Put(st)
		old.out.Close()
	}
	if seat >= 0 {
		s := t.seats[seat]
		s.person, s.here = p, true
		s.hold.stop()
		s.until = time.Time{}
		if t.host == "" {
			t.host = p.ID
		}
	}
	t.tokens++
	me := &tmember{Person: p, seat: seat, token: t.tokens, out: out}
	t.members = append(t.members, me)
	t.checkPaused()
	t.checkEmpty()
	t.publish()
	t.step()
	t.changed()
	return &TableMember{table: t, person: p, token: me.token, seat: seat}, nil
}

// freeSeat is the seat kept for id, else the first open one, else -1.
func (t *Table) freeSeat(id string) int {
	for i, s := range t.seats {
		if s.computer == "" && s.person.ID == "" && s.plan.Reserved.ID == id {
			return i
		}
	}
	for i, s := range t.seats {
		if s.computer == "" && s.person.ID == "" && s.plan.Reserved.ID == "" {
			return i
		}
	}
	return -1
}

func (t *Table) leave(me *tmember, drop bool) error {
	t.members = slices.DeleteFunc(t.members, func(x *tmember) bool { return x == me })
	me.out.Close()
	if drop && t.h.stopping.Load() {
		return nil
	}
	if me.seat >= 0 && t.offer != nil && t.seatedPerson(me.seat) {
		// Going, connection lost or not, is a no to the rematch.
		t.end(me.Name+" left the table, so there is no rematch.", true)
		return nil
	}
	if me.seat >= 0 {
		s := t.seats[me.seat]
		s.here = false
		switch {
		case t.phase == TableSeating || t.phase == TableFinished:
			s.person = Person{}
		case drop:
			s.until = t.h.clock.Now().Add(t.cfg.Hold)
			s.hold.set(&t.loop, t.h.clock, t.cfg.Hold, func() { t.lose(s, "did not come back in time") })
		default:
			t.lose(s, "left the table")
		}
	}
	if t.host == me.ID {
		t.passHost(me.seat)
	}
	t.checkEmpty()
	t.publish()
	t.step()
	t.changed()
	return nil
}

// lose gives a person's seat to the computer for good.
func (t *Table) lose(s *tseat, why string) {
	if s.gone || s.person.ID == "" {
		return
	}
	s.hold.stop()
	s.gone, s.goneNow, s.here, s.until = true, true, false, time.Time{}
	s.computer = t.kit.Info().StandInStrength()
	t.addLog(s.person.Name + " " + why + "; a computer plays the seat from now on")
	if t.host == s.person.ID {
		t.passHost(slices.Index(t.seats, s))
	}
	t.checkPaused()
	// A seat given up may have been the last person's, or the last answer
	// a rematch waited for.
	t.checkRematch()
	t.checkEmpty()
	t.publish()
	t.step()
	t.changed()
}

func (t *Table) hostPerson() Person {
	if i := t.seatOf(t.host); i >= 0 {
		return t.seats[i].person
	}
	for _, m := range t.members {
		if m.ID == t.host {
			return m.Person
		}
	}
	if t.host == t.cfg.Host.ID {
		return t.cfg.Host
	}
	return Person{}
}

func (t *Table) hostName() string {
	if p := t.hostPerson(); p.Name != "" {
		return p.Name
	}
	return "nobody"
}
