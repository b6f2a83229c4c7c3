package arcade

import (
	"sync/atomic"
	"time"
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

// Run is run, for the screens (ui.Searcher) and the deal pools.
func (s *searches) Run(kind string, done <-chan struct{}, fn func()) bool {
	return s.run(kind, done, fn)
}
