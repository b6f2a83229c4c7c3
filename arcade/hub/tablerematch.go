package hub

import (
	"slices"
	"strings"
)

// The end of a match and what follows it: the rematch offered to everyone
// seated, the host's part passed on when its holder goes, and a table that
// no person is left at. Everything here runs on the table's goroutine.

// offerRematch opens the rematch question as a match ends. A computer's
// seat (its plan's, or one a person lost) says yes at once.
func (t *Table) offerRematch() {
	t.offer = make([]bool, len(t.seats))
	for i := range t.seats {
		t.offer[i] = !t.seatedPerson(i)
	}
	t.offerHost = false
	t.offerEnd = t.h.clock.Now().Add(t.cfg.RematchWait)
	t.lapse.set(&t.loop, t.h.clock, t.cfg.RematchWait, t.rematchLapsed)
}

// seatedPerson: a person holds seat i (here, or away within the hold).
func (t *Table) seatedPerson(i int) bool {
	s := t.seats[i]
	return s.person.ID != "" && !s.gone
}

func (t *Table) anyPerson() bool {
	for i := range t.seats {
		if t.seatedPerson(i) {
			return true
		}
	}
	return false
}

// waiting names those the rematch still waits for: the people seated who
// have not said yes, or at a table of computers only, its host.
func (t *Table) waiting() []string {
	var out []string
	for i, yes := range t.offer {
		if !yes && t.seatedPerson(i) {
			out = append(out, t.seats[i].person.Name)
		}
	}
	if !t.anyPerson() && !t.offerHost && t.host != "" {
		out = append(out, t.hostName())
	}
	return out
}

// answer is a member's yes or no to the rematch. Only a person seated
// answers; at a table of computers only, the host does.
func (t *Table) answer(me *tmember, yes bool) error {
	if t.phase != TableFinished || t.offer == nil {
		return refuse(ErrNotPlaying, "A rematch comes once the match is over.")
	}
	seated := me.seat >= 0 && t.seatedPerson(me.seat) && t.seats[me.seat].person.ID == me.ID
	if !seated && (t.anyPerson() || me.ID != t.host) {
		return refuse(ErrNotSeated, "Only the players at the table answer a rematch.")
	}
	if !yes {
		t.end(me.Name+" declined the rematch.", true)
		return nil
	}
	if seated {
		if t.offer[me.seat] {
			return nil
		}
		t.offer[me.seat] = true
	} else {
		if t.offerHost {
			return nil
		}
		t.offerHost = true
	}
	t.addLog(me.Name + " says yes to a rematch")
	t.checkRematch()
	return nil
}

// checkRematch starts the rematch once nobody is left to answer, or tells
// everyone who said yes.
func (t *Table) checkRematch() {
	if t.offer == nil || t.phase != TableFinished {
		return
	}
	if len(t.waiting()) > 0 || (!t.anyPerson() && !t.offerHost) {
		t.publish()
		t.changed()
		return
	}
	t.lapse.stop()
	t.offer, t.offerHost = nil, false
	for _, s := range t.seats {
		if s.gone {
			// A new match gives a lost seat back to its plan: a person's
			// seat is open again, and the rematch waits at the seating.
			s.gone, s.person, s.computer = false, Person{}, s.plan.Computer
		}
	}
	t.phase = TableSeating
	t.game, t.match, t.result = nil, nil, nil
	if err := t.dealWhenSeated(); err != nil {
		t.addLog("a rematch is agreed: " + err.Error())
		t.publish()
		t.changed()
	}
}

// rematchLapsed closes the table when the rematch was not answered in
// time.
func (t *Table) rematchLapsed() {
	if t.offer == nil || t.phase != TableFinished {
		return
	}
	w := t.waiting()
	said := t.offerHost
	for i, yes := range t.offer {
		said = said || (yes && t.seatedPerson(i))
	}
	reason := "Nobody answered the rematch in time."
	if said && len(w) > 0 {
		reason = strings.Join(w, " and ") + " did not answer the rematch in time."
	}
	t.end(reason, true)
}

// rematchState is the open offer as a state carries it, or nil.
func (t *Table) rematchState() *RematchOffer {
	if t.offer == nil || t.phase != TableFinished {
		return nil
	}
	return &RematchOffer{Yes: slices.Clone(t.offer), Waiting: t.waiting(), Left: max(t.offerEnd.Sub(t.h.clock.Now()), 0)}
}

// deserted: every person's seat has been given up, so only computers
// would play on. A table planned for computers alone (watched by its host)
// is not deserted; nor is one still seating, where people may yet sit.
func (t *Table) deserted() bool {
	if t.ended || t.phase == TableSeating {
		return false
	}
	planned := false
	for i, s := range t.seats {
		if t.seatedPerson(i) {
			return false
		}
		planned = planned || s.plan.Computer == ""
	}
	return planned
}

// passHost gives the host's part, when its holder leaves, to the next
// person seated after seat from (from -1: the first), one who is here
// before one away; with no person seated there is no host.
func (t *Table) passHost(from int) {
	old := t.host
	t.host = ""
	n := len(t.seats)
	from = max(from, -1) // a watcher's: from the first seat
	for _, anyone := range []bool{false, true} {
		for k := 1; k <= n; k++ {
			i := (from + k + n) % n
			s := t.seats[i]
			if t.seatedPerson(i) && s.person.ID != old && (s.here || anyone) {
				t.host = s.person.ID
				t.addLog(s.person.Name + " hosts the table now")
				return
			}
		}
	}
}
