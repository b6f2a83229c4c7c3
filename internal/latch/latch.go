// Package latch runs functions once something has happened: at once for a
// function given after, at the moment it happens for one given before.
// The session's guard (its channel's end) and the router (its first window
// size) each wait on one.
package latch

import "sync"

// Latch is an event that happens once. The zero value has not happened.
type Latch struct {
	mu      sync.Mutex
	done    bool
	waiting []func()
}

// Do has f run once the event has happened: now, on this goroutine, if it
// has, else on the goroutine that calls Happen.
func (l *Latch) Do(f func()) {
	l.mu.Lock()
	if l.done {
		l.mu.Unlock()
		f()
		return
	}
	l.waiting = append(l.waiting, f)
	l.mu.Unlock()
}

// Happen marks the event as happened and runs what waits for it, in the
// order given, outside the lock (so a function may call Do). Later calls do
// nothing.
func (l *Latch) Happen() {
	l.mu.Lock()
	fs := l.waiting
	l.done, l.waiting = true, nil
	l.mu.Unlock()
	for _, f := range fs {
		f()
	}
}
