package ui

import (
	"sync/atomic"

	"sshuffle/engine"
)

// Searcher caps the background searches of the whole server (the arcade's
// implementation counts them in its metrics). Run waits for a slot, or for
// done to close and then returns false without running fn.
type Searcher interface {
	Run(kind string, done <-chan struct{}, fn func()) bool
}

// HintAnswer is a hint search's answer for one position.
type HintAnswer struct {
	A     engine.Action
	Why   string
	OK    bool
	Shown bool // already shown (and counted) for this position
}

// maxKeptHints bounds the answers a session keeps.
const maxKeptHints = 64

// Background is one session's share of the background searches: at most
// one runs at a time (lock), one hint is asked at a time (HintBusy), only
// the newest stuck check is worth running (StuckGen), and answers already
// found are kept by position (Hints, touched on the screen's goroutine only).
type Background struct {
	lock     chan struct{}
	HintBusy atomic.Bool
	StuckGen atomic.Int64
	Hints    map[string]HintAnswer
}

// Background is made on first use, on the screen's goroutine; commands
// capture the pointer before they leave it.
func (e *Env) Background() *Background {
	if e.bgState == nil {
		e.bgState = &Background{lock: make(chan struct{}, 1), Hints: map[string]HintAnswer{}}
	}
	return e.bgState
}

// KeepHint keeps the answer found for a position.
func (b *Background) KeepHint(pos string, h HintAnswer) {
	if len(b.Hints) >= maxKeptHints {
		clear(b.Hints)
	}
	b.Hints[pos] = h
}

// Search runs fn in the session's slot and then a server-wide one. If
// still is given and says false once the session's slot is had, fn is
// skipped: a newer request replaced it while it waited.
func (e *Env) Search(kind string, still func() bool, fn func()) bool {
	b := e.Background()
	select {
	case b.lock <- struct{}{}:
	case <-e.Done:
		return false
	}
	defer func() { <-b.lock }()
	if still != nil && !still() {
		return false
	}
	if e.Searches == nil {
		fn()
		return true
	}
	return e.Searches.Run(kind, e.Done, fn)
}
