package render

import (
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Model runs a session's model and draws it: after each Update the view is
// drawn at once, unless a frame went out less than a frame ago, in which
// case it is drawn when that frame's time is up (inputs arriving within a
// frame share one). Keys and mouse input are paced apart from everything
// else, so a clock tick just drawn never holds a key's echo back.
//
// A model whose view changes by itself (a game clock) says when, through
// Clocked, and the view is drawn then without a message: an idle session
// costs one View and one write when its clock changes, and nothing else
// (no goroutine of the program's, no command, no Update).
//
// Run the program with tea.WithoutRenderer (Bubble Tea then only reads
// input and runs Update), set the program with SetProgram before Run, and
// call Finish after Run returns.
type Model struct {
	inner    tea.Model
	scr      *Screen
	interval time.Duration
	now      func() time.Time

	send    func(tea.Msg)
	release func() error

	// mu is held while the inner model or the screen is used: by Update
	// on the program's goroutine, and by frames the timer draws on its own.
	mu      sync.Mutex
	timer   *time.Timer
	armedAt time.Time // when the timer fires; zero when it is not armed
	dirty   bool      // the view may differ from what was drawn
	pending bool      // the frame due carries input
	clockAt time.Time // when the view changes by itself; zero: never
	last    time.Time // the last frame
	lastIn  time.Time // the last frame that answered input
	done    bool
}

// Clocked is a model whose view changes with time alone. NextChange is how
// long from now until it next does; zero or less when it does not.
type Clocked interface {
	NextChange() time.Duration
}

// viewPanic carries a panic from a frame drawn on the timer's goroutine to
// the program's, where Bubble Tea's recovery ends the session alone.
type viewPanic struct {
	m     *Model
	value string
}

// New wraps inner, drawing on scr at most fps frames a second for input
// (and as many again for everything else).
func New(inner tea.Model, scr *Screen, fps int) *Model {
	if fps <= 0 {
		fps = 60
	}
	return &Model{inner: inner, scr: scr, interval: time.Second / time.Duration(fps), now: time.Now}
}

// Program is what the model needs of the *tea.Program it runs in.
type Program interface {
	Send(tea.Msg)
	ReleaseTerminal() error
}

// SetProgram gives the model the program it runs in.
func (m *Model) SetProgram(p Program) { m.send, m.release = p.Send, p.ReleaseTerminal }

// Screen is the screen the model draws on.
func (m *Model) Screen() *Screen { return m.scr }

// Init starts the inner model, and stops Bubble Tea's frame ticker: with
// no renderer it only flushes an output buffer nothing writes to, yet it
// wakes every session once a second (at the lowest rate Bubble Tea takes)
// and keeps a goroutine. ReleaseTerminal is the one way to stop it; for a
// program without a terminal, renderer or input reader it does nothing
// else (its wait for the absent input reader runs in the command's own
// goroutine).
func (m *Model) Init() tea.Cmd {
	m.mu.Lock()
	cmd := m.inner.Init()
	m.mu.Unlock()
	if m.release == nil {
		return cmd
	}
	release := m.release
	return tea.Batch(cmd, func() tea.Msg { _ = release(); return nil })
}

// View is empty: the program has no renderer, and the frames are drawn by
// Update and the timer.
func (m *Model) View() tea.View { return tea.View{} }

// Update runs the inner model, then draws or schedules a frame.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if p, ok := msg.(viewPanic); ok {
		if p.m == m {
			panic(p.value)
		}
		return m, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	input := false
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if msg.Width > 0 && msg.Height > 0 {
			m.scr.Resize(msg.Width, msg.Height)
		}
	case tea.ColorProfileMsg:
		m.scr.SetProfile(msg.Profile)
	case tea.ModeReportMsg:
		if msg.Mode == ansi.ModeSynchronizedOutput && msg.Value == ansi.ModeReset {
			m.scr.SetSync(true)
		}
	case tea.KeyPressMsg, tea.MouseMsg, tea.PasteMsg:
		input = true
	}
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(msg)
	m.dirty = true
	m.pending = m.pending || input
	now := m.now()
	if due := m.frameDue(); !now.Before(due) {
		m.draw(now)
	}
	m.arm(now)
	return m, cmd
}

// frameDue is when the next frame may go out: a frame after the last one,
// or after the last one that answered input when this one does.
func (m *Model) frameDue() time.Time {
	if m.pending {
		return m.lastIn.Add(m.interval)
	}
	return m.last.Add(m.interval)
}

// arm sets the timer for the next frame the model owes: a deferred one, or
// the view's next change by itself. Called with mu held.
func (m *Model) arm(now time.Time) {
	if m.done || m.send == nil {
		return
	}
	var at time.Time
	switch {
	case m.dirty:
		at = m.frameDue()
	case !m.clockAt.IsZero():
		at = m.clockAt
	default:
		return
	}
	if !m.armedAt.IsZero() && !at.Before(m.armedAt) {
		return // the timer fires by then, and arms itself again
	}
	m.armedAt = at
	d := max(at.Sub(now), 0)
	if m.timer == nil {
		m.timer = time.AfterFunc(d, m.fire)
	} else {
		m.timer.Reset(d)
	}
}

// fire draws the frame the timer was set for, on the timer's goroutine.
func (m *Model) fire() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.done {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			m.done = true
			send, value := m.send, fmt.Sprintf("%v\n\nframe drawn on the timer's goroutine:\n%s", r, debug.Stack())
			go send(viewPanic{m: m, value: value})
		}
	}()
	m.armedAt = time.Time{}
	now := m.now()
	if m.dirty && now.Before(m.frameDue()) {
		m.arm(now) // fired early (a clock time before a frame's)
		return
	}
	if m.dirty || (!m.clockAt.IsZero() && !now.Before(m.clockAt)) {
		m.draw(now)
	}
	m.arm(now)
}

// draw draws the inner view and notes when it next changes by itself.
// Called with mu held.
func (m *Model) draw(now time.Time) {
	_ = m.scr.Draw(m.inner.View())
	m.dirty = false
	m.last = now
	if m.pending {
		m.lastIn = now
	}
	m.pending = false
	m.clockAt = time.Time{}
	if c, ok := m.inner.(Clocked); ok {
		if d := c.NextChange(); d > 0 {
			m.clockAt = slot(now.Add(d))
		}
	}
}

// clockSlack is how late a clock may turn. Clock frames are drawn on a
// grid of this step, shared by every session, so that the timers of a
// thousand sessions wake the server forty times a second, not a thousand,
// and each wake-up draws a few dozen clocks in one stretch (a goroutine
// woken from sleep costs more than the frame it draws).
const clockSlack = 100 * time.Millisecond

// slot is t rounded up to the clock grid.
func slot(t time.Time) time.Time {
	if r := t.Sub(t.Truncate(clockSlack)); r > 0 {
		return t.Add(clockSlack - r)
	}
	return t
}

// Finish draws the model's last view and gives the terminal back. Call it
// once Run has returned.
func (m *Model) Finish() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done = true
	if m.timer != nil {
		m.timer.Stop()
	}
	if err := m.scr.Draw(m.inner.View()); err != nil {
		return err
	}
	return m.scr.Close()
}
