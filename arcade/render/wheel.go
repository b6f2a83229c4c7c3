package render

import (
	"sync"
	"sync/atomic"
	"time"
)

// clockSlack is how late a clock may turn. Clock frames are drawn on a grid
// of this step, shared by every session of the server. A session's clock
// is late by the same amount every second (its start's offset on the
// grid), so its seconds still turn a second apart; a key drawn in between
// shows the exact time. Each slot has a fixed cost (a timer, a goroutine,
// thread wake-ups), so a coarser grid makes an idle session cheaper, and a
// quarter second late is still not a late clock to the eye.
const clockSlack = 250 * time.Millisecond

// slotOf is the grid slot at or after t; slotTime is its time.
func slotOf(t time.Time) int64 {
	q := int64(clockSlack)
	return (t.UnixNano() + q - 1) / q
}

func slotTime(k int64) time.Time { return time.Unix(0, k*int64(clockSlack)) }

// clockWheel turns the clocks of every session: one timer and one goroutine
// for the server instead of one of each per session. At each slot it makes
// the frames of every session due (the views and their diffs, no I/O), and
// only then writes them, one after another.
// Made apart, a thousand idle sessions cost a thousand goroutine wake-ups
// a second, each waking the client's side of the connection as well; on the
// 2-core VM a write to a connection whose reader sleeps costs several times
// what writes back to back do. A session busy
// at its slot (its program in Update, or stuck writing to a client that does
// not read) is not waited for: a goroutine of its own turns its clock once it
// is free, so one stuck session never holds up the others' clocks.
type clockWheel struct {
	mu    sync.Mutex
	slots map[int64][]*Model
	free  [][]*Model // emptied slots' lists, for the next slots
	timer *time.Timer
	at    int64 // the slot the timer is set for; 0: none
}

var clocks = &clockWheel{slots: map[int64][]*Model{}}

// add puts m in slot k.
func (w *clockWheel) add(m *Model, k int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ms, ok := w.slots[k]
	if !ok && len(w.free) > 0 {
		// A slot's list grows to a few thousand sessions: reused, a new
		// slot four times a second does not grow one from nothing.
		ms, w.free = w.free[len(w.free)-1], w.free[:len(w.free)-1]
	}
	w.slots[k] = append(ms, m)
	if w.at == 0 || k < w.at {
		w.at = k
		d := max(time.Until(slotTime(k)), 0)
		if w.timer == nil {
			w.timer = time.AfterFunc(d, w.turn)
		} else {
			w.timer.Reset(d)
		}
	}
}

// turn draws every slot that is due.
func (w *clockWheel) turn() {
	now := time.Now()
	due := now.UnixNano() / int64(clockSlack)
	w.mu.Lock()
	n := 0
	for k, ms := range w.slots {
		if k <= due {
			n += len(ms)
		}
	}
	type entry struct {
		m *Model
		k int64
	}
	batch := make([]entry, 0, n)
	for k, ms := range w.slots {
		if k <= due {
			for _, m := range ms {
				batch = append(batch, entry{m, k})
			}
			delete(w.slots, k)
			clear(ms)
			if len(w.free) < 4 {
				w.free = append(w.free, ms[:0])
			}
		}
	}
	w.at = 0
	for k := range w.slots {
		if w.at == 0 || k < w.at {
			w.at = k
		}
	}
	if w.at != 0 {
		w.timer.Reset(max(time.Until(slotTime(w.at)), 0))
	}
	w.mu.Unlock()

	frames := make([]writeJob, 0, len(batch))
	for _, e := range batch {
		m, k := e.m, e.k
		if !m.mu.TryLock() {
			go func() {
				m.mu.Lock()
				defer m.mu.Unlock()
				if b, ok := m.turn(k, time.Now()); ok {
					_ = m.scr.Send(b)
				}
			}()
			continue
		}
		b, ok := m.turn(k, now)
		if !ok || len(b) == 0 {
			m.mu.Unlock()
			continue
		}
		frames = frames[:len(frames)+1]
		frames[len(frames)-1].m, frames[len(frames)-1].b = m, b
	}
	if len(frames) == 0 {
		return
	}
	// This goroutine writes them all, in turn; should one write block (a
	// client that stopped reading), the frames still unwritten after
	// writeStall go out on goroutines of their own.
	stall := time.AfterFunc(writeStall, func() {
		for i := range frames {
			if f := &frames[i]; !f.claimed.Load() {
				go f.run()
			}
		}
	})
	for i := range frames {
		frames[i].run()
	}
	stall.Stop()
}

// writeStall is how long the wheel's writes may be held up by one that
// blocks before the rest are written apart.
const writeStall = 20 * time.Millisecond

// writeJob is a frame made by the wheel, with its model's mu still held,
// to be written once by whichever goroutine claims it.
type writeJob struct {
	m       *Model
	b       []byte
	claimed atomic.Bool
}

func (j *writeJob) run() {
	if j.claimed.CompareAndSwap(false, true) {
		defer j.m.mu.Unlock()
		_ = j.m.scr.Send(j.b)
	}
}
