package arcade

import (
	"sync/atomic"
	"time"

	"sshuffle/engine"
)

// searches caps the background searches (FreeCell hints, Spider's stuck
// checks, the deal pools) running at once over the whole server. They are
// CPU-bound and Go has no priorities: without a cap, a few players pressing
// hint take every core and every other player's screen stalls.
type searches struct {
	slots   chan struct{}
	m       *metrics
	ran     atomic.Int64 // searches run, for tests and logs
	running atomic.Int64
	peak    atomic.Int64 // most running at once, for tests
}

func newSearches(n int, m *metrics) *searches {
	return &searches{slots: make(chan struct{}, max(n, 1)), m: m}
}

// run waits for a slot (or for done to close, then returns false without
// running fn) and runs fn in it.
func (s *searches) run(kind string, done <-chan struct{}, fn func()) bool {
	if s == nil {
		fn()
		return true
	}
	s.m.searchQueue.Inc()
	select {
	case s.slots <- struct{}{}:
		s.m.searchQueue.Dec()
	case <-done:
		s.m.searchQueue.Dec()
		return false
	}
	defer func() { <-s.slots }()
	n := s.running.Add(1)
	defer s.running.Add(-1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
	s.m.searchActive.Inc()
	defer s.m.searchActive.Dec()
	s.ran.Add(1)
	start := time.Now()
	defer func() { s.m.searchTime.WithLabelValues(kind).Observe(since(start)) }()
	fn()
	return true
}

// hintAnswer is a hint search's answer for one position.
type hintAnswer struct {
	a     engine.Action
	why   string
	ok    bool
	shown bool // already shown (and counted) for this position
}

// maxKeptHints bounds the answers a session keeps.
const maxKeptHints = 64

// background is one session's share of the background searches: at most
// one runs at a time (lock), one hint is asked at a time (hintBusy), only
// the newest stuck check is worth running (stuckGen), and answers already
// found are kept by position (hints, touched on the screen's goroutine only).
type background struct {
	lock     chan struct{}
	hintBusy atomic.Bool
	stuckGen atomic.Int64
	hints    map[string]hintAnswer
}

// background is made on first use, on the screen's goroutine; commands
// capture the pointer before they leave it.
func (e *env) background() *background {
	if e.bgState == nil {
		e.bgState = &background{lock: make(chan struct{}, 1), hints: map[string]hintAnswer{}}
	}
	return e.bgState
}

func (b *background) keepHint(pos string, h hintAnswer) {
	if len(b.hints) >= maxKeptHints {
		clear(b.hints)
	}
	b.hints[pos] = h
}

// search runs fn in the session's slot and then a server-wide one. If
// still is given and says false once the session's slot is had, fn is
// skipped: a newer request replaced it while it waited.
func (e *env) search(kind string, still func() bool, fn func()) bool {
	b := e.background()
	select {
	case b.lock <- struct{}{}:
	case <-e.done:
		return false
	}
	defer func() { <-b.lock }()
	if still != nil && !still() {
		return false
	}
	return e.bg.run(kind, e.done, fn)
}
