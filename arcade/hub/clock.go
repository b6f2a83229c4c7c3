package hub

import (
	"slices"
	"sync"
	"time"
)

// Clock is the hub's only source of time. Rooms read it for race times and
// schedule their countdowns, ghost steps and grace periods on it, so that a
// test can drive a whole race with a ManualClock and never sleep.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once, on a goroutine of the clock's choosing, when d
	// has passed. Stop keeps f from being called if it has not been yet.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a scheduled call; *time.Timer is one.
type Timer interface {
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }

func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// ManualClock moves only when told to. Advance fires every timer that falls
// due, in order of deadline, with Now reading that deadline while it fires,
// and calls each on the caller's goroutine. A room's timer callback waits
// until the room has handled it, so when Advance returns every room has
// seen every tick up to the new time, including ticks scheduled by ticks.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    uint64
	timers []*manualTimer
}

type manualTimer struct {
	c    *ManualClock
	at   time.Time
	seq  uint64 // keeps timers due at the same instant in the order they were set
	f    func()
	done bool
}

// NewManualClock starts at a fixed instant, so that tests print the same
// times on every run.
func NewManualClock() *ManualClock {
	return &ManualClock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *ManualClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &manualTimer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *manualTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.done {
		return false
	}
	t.done = true
	t.c.timers = slices.DeleteFunc(t.c.timers, func(x *manualTimer) bool { return x == t })
	return true
}

// Advance moves the clock forward by d, firing what falls due on the way.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *manualTimer
		for _, t := range c.timers {
			if t.at.After(end) {
				continue
			}
			if next == nil || t.at.Before(next.at) || (t.at.Equal(next.at) && t.seq < next.seq) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		next.done = true
		c.timers = slices.DeleteFunc(c.timers, func(x *manualTimer) bool { return x == next })
		if next.at.After(c.now) {
			c.now = next.at
		}
		c.mu.Unlock()
		// Outside the lock: the callback waits for a room, and that room
		// may be setting a new timer on this clock meanwhile.
		next.f()
	}
}

// Pending is how many timers are set and not yet fired or stopped.
func (c *ManualClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
