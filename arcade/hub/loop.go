package hub

import "time"

// loop is the goroutine that owns a room. Commands are closures run on it
// one at a time, so everything a room holds is touched by that goroutine
// alone and needs no lock. The public methods of a room turn plain values
// into such commands; a room kept behind a message bus would decode the
// same values from messages instead.
//
// The channel is unbuffered on purpose: a command that was accepted is
// always run, so a caller waiting for its reply never waits on a room that
// has gone.
type loop struct {
	cmds chan func()
	done chan struct{}
}

func newLoop() loop {
	return loop{cmds: make(chan func()), done: make(chan struct{})}
}

// run takes commands until ended reports true after one of them.
func (l *loop) run(ended func() bool) {
	defer close(l.done)
	for f := range l.cmds {
		f()
		if ended() {
			return
		}
	}
}

// wait runs f on the loop and returns when it has run, or returns
// ErrClosed at once if the room has ended.
func (l *loop) wait(f func()) error {
	ack := make(chan struct{})
	select {
	case l.cmds <- func() { f(); close(ack) }:
		<-ack
		return nil
	case <-l.done:
		return ErrClosed
	}
}

// call runs f on the loop and returns its answer.
func call[T any](l *loop, f func() (T, error)) (T, error) {
	var v T
	var err error
	if werr := l.wait(func() { v, err = f() }); werr != nil {
		return v, werr
	}
	return v, err
}

// after schedules f on the loop. The clock's goroutine waits until f has
// run, which is what lets ManualClock.Advance finish a chain of ticks in
// one call; with the wall clock it holds a timer goroutine a few
// microseconds longer. A timer that fires after the room ended does nothing.
func (l *loop) after(c Clock, d time.Duration, f func()) Timer {
	return c.AfterFunc(d, func() { _ = l.wait(f) })
}

// alarm is one timer of a room (its countdown, its grace period, one
// ghost's next step). Setting it again or stopping it turns a firing that
// is already on its way to the loop into nothing, which Timer.Stop alone
// cannot promise. Only the room's goroutine touches an alarm.
type alarm struct {
	t   Timer
	gen uint64
}

func (a *alarm) set(l *loop, c Clock, d time.Duration, f func()) {
	a.stop()
	gen := a.gen
	a.t = l.after(c, d, func() {
		if a.gen == gen {
			a.t = nil
			f()
		}
	})
}

func (a *alarm) stop() {
	if a.t != nil {
		a.t.Stop()
		a.t = nil
	}
	a.gen++
}

func (a *alarm) pending() bool { return a.t != nil }
