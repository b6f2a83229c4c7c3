package ui

import tea "charm.land/bubbletea/v2"

// Member is a room membership as a live screen holds it: the hub's race and
// table members are both one. Leave is the player going (the room forgets
// them, and waits to say so); Drop is the connection ending (the room keeps
// their place for a while, so they can come back).
type Member interface {
	Leave() error
	Drop() error
}

// Live is a live screen's hold on its room, the one way every live screen
// holds one (a race, a table): the room's pushed states of type S reach the
// session's program as LiveMsg values addressed to this hold alone, so
// that a screen under the current one, or an older screen of the same
// room, can tell its own states from another's; and the membership ends
// once, by Leave when the player quits the screen or by Drop when the
// session ends under it, whichever comes first.
//
// A hold can pass from one screen to the next (a route carrying the
// pointer, as the lobby hands a seat to the table): states keep their
// address, so the screen that takes it gets them; the one that hands it on
// forgets it rather than leaving or dropping it.
//
// Its methods other than the sink run on the program's goroutine (the
// screen's Update, Save and Left), as the router calls them.
type Live[S any, M Member] struct {
	to   *liveAddr
	m    M
	done bool
}

// liveAddr is what a LiveMsg is addressed to: a pointer of its own per
// hold, with a size so that no two holds share one.
type liveAddr struct{ _ byte }

// LiveMsg is one state a room pushed, on its way to the screen holding the
// membership it was pushed to. The router hands it to every screen of the
// stack; Live.State picks out a hold's own.
type LiveMsg[S any] struct {
	State S
	to    *liveAddr
}

// Join makes a hold and joins a room through join, which is handed the sink
// to give the hub: each state it gets becomes a LiveMsg to this hold, sent
// into the session's program by the member's own drain goroutine (never
// the room's, which must not wait for a program). join may try more than
// once (as a racer, then as a watcher); the membership it returns is held.
func Join[S any, M Member](e *Env, join func(sink func(S)) (M, error)) (*Live[S, M], error) {
	l := &Live[S, M]{to: &liveAddr{}}
	to := l.to
	m, err := join(func(st S) { e.Send(LiveMsg[S]{State: st, to: to}) })
	if err != nil {
		return nil, err
	}
	l.m = m
	return l, nil
}

// Member is the membership held, for the room's other requests.
func (l *Live[S, M]) Member() M { return l.m }

// State is the state msg carries, if msg is a state pushed to this hold.
func (l *Live[S, M]) State(msg tea.Msg) (S, bool) {
	if lm, ok := msg.(LiveMsg[S]); ok && lm.to == l.to {
		return lm.State, true
	}
	var zero S
	return zero, false
}

// Done reports whether the membership has ended here: left, dropped, or
// closed by the room.
func (l *Live[S, M]) Done() bool { return l.done }

// Leave ends the membership as the player's choice; the room answers
// before it returns, so a screen built next does not still find the
// player in it. Only the first of Leave, Drop and Closed counts.
func (l *Live[S, M]) Leave() {
	if !l.done {
		l.done = true
		_ = l.m.Leave() // a room that closed already has nothing to forget
	}
}

// Drop ends the membership as a lost connection does: the room keeps the
// player's place for as long as it keeps places. It is what a screen's
// Save calls, and safe to call again.
func (l *Live[S, M]) Drop() {
	if !l.done {
		l.done = true
		_ = l.m.Drop()
	}
}

// Closed records that the room ended the membership itself (it closed, or
// the player joined from elsewhere): there is nothing more to tell it.
func (l *Live[S, M]) Closed() { l.done = true }
