package hub

import (
	"slices"
	"time"

	"sshuffle/engine"
)

// Publishing: the table as the lobby lists it, and the state each member
// is pushed (built once per change, each view once per seat looked at).
// Everything here runs on the table's goroutine.

func (t *Table) info() TableInfo {
	in := TableInfo{
		Code: t.code, Game: t.cfg.Game, Settings: t.cfg.Settings, Phase: t.phase, Private: t.cfg.Private,
		Seats: t.seatsNow(), Watchers: t.watchers(), GameNo: t.gameNo, Opened: t.opened, Speed: t.cfg.Speed,
		Rated: t.cfg.Rated,
	}
	if t.ended {
		in.Phase = TableClosed
	}
	in.Host = t.hostPerson()
	for _, s := range in.Seats {
		if s.Open() {
			in.Free++
		}
	}
	return in
}

func (t *Table) seatInfos() []SeatInfo { return t.fillSeatInfos(make([]SeatInfo, len(t.seats))) }

// seatsNow is seatInfos, as the slice handed out last while the seats are
// as they were (most changes are actions, which leave them be): the
// states and the listing share it, and nobody writes into it.
func (t *Table) seatsNow() []SeatInfo {
	if cap(t.seatsScratch) < len(t.seats) {
		t.seatsScratch = make([]SeatInfo, len(t.seats))
	}
	now := t.fillSeatInfos(t.seatsScratch[:len(t.seats)])
	if t.seatsShared == nil || !slices.Equal(now, t.seatsShared) {
		t.seatsShared = slices.Clone(now)
	}
	return t.seatsShared
}

// fillSeatInfos writes the seats' infos into out, one a seat.
func (t *Table) fillSeatInfos(out []SeatInfo) []SeatInfo {
	for i, s := range t.seats {
		out[i] = SeatInfo{Person: s.person, Computer: s.computer, Here: s.here, Gone: s.gone,
			StandIn: s.person.ID != "" && !s.here && !s.gone && t.phase != TableSeating, HeldUntil: s.until}
		if s.person.ID == "" && s.computer == "" {
			out[i].Reserved = s.plan.Reserved
		} else {
			out[i].Name = t.name(i)
			out[i].Rating = t.seatRating(s)
		}
	}
	return out
}

// publish tells the hub's lobby about a change of seats, phase, host or
// watchers. Actions in play do not change the listing, so the lobby's
// watchers hear nothing of them.
func (t *Table) publish() {
	if t.ended {
		return // unlisted for good
	}
	in := t.info()
	if tableInfoEqual(in, t.listed) {
		return
	}
	t.listed = in
	t.h.list(in)
}

func tableInfoEqual(a, b TableInfo) bool {
	return a.Code == b.Code && a.Phase == b.Phase && a.Host == b.Host && a.Watchers == b.Watchers &&
		a.GameNo == b.GameNo && a.Free == b.Free && slices.Equal(a.Seats, b.Seats)
}

type tableShared struct {
	seats    []SeatInfo
	watchers []Person
	public   []byte
	views    [][]byte
	turn     int
	left     time.Duration
	totals   []int
	rematch  *RematchOffer
}

func (t *Table) shared() *tableShared {
	sh := &tableShared{seats: t.seatsNow(), turn: engine.NoSeat, rematch: t.rematchState()}
	for _, m := range t.members {
		if m.seat == Watch {
			sh.watchers = append(sh.watchers, m.Person)
		}
	}
	if t.game != nil && !t.broken {
		sh.views = make([][]byte, len(t.seats))
		if t.phase == TablePlaying {
			sh.turn = t.game.Turn()
		}
		sh.totals = t.match.Totals()
	}
	if !t.deadline.IsZero() && t.phase == TablePlaying && !t.auto {
		if t.paused {
			sh.left = t.left
		} else {
			sh.left = max(t.deadline.Sub(t.h.clock.Now()), 0)
		}
	}
	return sh
}

// changed pushes the new state to every member. Each view is built once,
// and only for a seat somebody is looking at.
func (t *Table) changed() {
	t.version++
	sh := t.shared()
	if t.spy != nil && !t.broken {
		t.spy(t)
	}
	for _, m := range t.members {
		t.put(m, t.stateFor(m, sh))
	}
}

func (t *Table) put(m *tmember, st TableState) {
	m.sent = st.Version
	m.out.Put(st)
}

func (t *Table) stateFor(m *tmember, sh *tableShared) TableState {
	st := TableState{
		Code: t.code, Game: t.cfg.Game, Settings: t.cfg.Settings, Speed: t.cfg.Speed, Rated: t.cfg.Rated, Phase: t.phase, Paused: t.paused,
		Host: t.host, Seats: sh.seats, Watchers: sh.watchers, You: m.ID, Seat: m.seat, Turn: sh.turn,
		TurnLeft: sh.left, Auto: t.auto, Log: t.log, GameNo: t.gameNo, Totals: sh.totals, Result: t.result,
		MatchWinner: engine.NoSeat, Refused: m.refused, Version: t.version, Rematch: sh.rematch,
	}
	if !m.mute {
		st.Said = t.talk.said
	}
	if t.phase == TableFinished && !t.broken {
		st.MatchWinner = t.match.Winner()
	}
	if t.game != nil && !t.broken {
		if m.seat >= 0 {
			if sh.views[m.seat] == nil {
				sh.views[m.seat] = t.game.View(m.seat)
			}
			st.View = sh.views[m.seat]
		} else {
			if sh.public == nil {
				sh.public = t.game.View(engine.Spectator)
			}
			st.View = sh.public
		}
	}
	return st
}
