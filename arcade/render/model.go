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
	wheelK  int64     // the wheel slot the model waits in; 0: none
	wheel   *clockWheel
	pieces  []string  // scratch for a Pieced model's pieces
	last    time.Time // the last frame
	lastIn  time.Time // the last frame that answered input
	done    bool
}

// Clocked is a model whose view changes with time alone. NextChange is how
// long from now until it next does; zero or less when it does not.
type Clocked interface {
	NextChange() time.Duration
}

// Pieced is a model whose view can come in pieces, put end to end for the
// content (the content of the view it returns is not read): a piece kept
// from the last frame is compared by pointer, and no string of the whole
// screen is made for a change in one line (Screen.FramePieces). The
// pieces are appended to dst.
type Pieced interface {
	ViewPieces(dst []string) (tea.View, []string)
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
	return &Model{inner: inner, scr: scr, interval: time.Second / time.Duration(fps), now: time.Now, wheel: clocks}
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

// arm sets the timer for a frame held back by the frame rate. Called with
// mu held.
func (m *Model) arm(now time.Time) {
	if m.done || m.send == nil || !m.dirty {
		return
	}
	at := m.frameDue()
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
	defer m.recoverFrame()
	m.armedAt = time.Time{}
	now := m.now()
	if m.dirty && now.Before(m.frameDue()) {
		m.arm(now)
		return
	}
	if m.dirty {
		m.draw(now)
	}
}

// recoverFrame hands a panic in a frame drawn off the program's goroutine
// to the program. Deferred with mu held.
func (m *Model) recoverFrame() {
	if r := recover(); r != nil {
		m.done = true
		send, value := m.send, fmt.Sprintf("%v\n\nframe drawn off the program's goroutine:\n%s", r, debug.Stack())
		if send != nil {
			go send(viewPanic{m: m, value: value})
		}
	}
}

// draw draws the inner view. Called with mu held.
func (m *Model) draw(now time.Time) {
	_ = m.scr.Send(m.frame(now))
}

// frame makes the inner view's frame, taken as sent, and puts the model on
// the clock wheel for the view's next change by itself. Called with mu held.
func (m *Model) frame(now time.Time) []byte {
	var b []byte
	if p, ok := m.inner.(Pieced); ok {
		var v tea.View
		v, m.pieces = p.ViewPieces(m.pieces[:0])
		b = m.scr.FramePieces(v, m.pieces)
		clear(m.pieces) // the screen keeps its own copy
	} else {
		b = m.scr.Frame(m.inner.View())
	}
	m.dirty = false
	m.last = now
	if m.pending {
		m.lastIn = now
	}
	m.pending = false
	m.clockAt = time.Time{}
	if c, ok := m.inner.(Clocked); ok && !m.done {
		if d := c.NextChange(); d > 0 {
			k := slotOf(now.Add(d))
			m.clockAt = slotTime(k)
			if k != m.wheelK {
				m.wheelK = k
				m.wheel.add(m, k)
			}
		}
	}
	return b
}

// turn is the wheel's call for slot k: with mu held (the wheel took it),
// the clock frame to send, if the clock is due; ok is false when the model
// has nothing for this slot (it ended, or its clock moved to another).
func (m *Model) turn(k int64, now time.Time) (b []byte, ok bool) {
	if m.done || m.wheelK != k {
		return nil, false
	}
	m.wheelK = 0
	defer m.recoverFrame()
	if m.clockAt.IsZero() {
		return nil, false
	}
	if now.Before(m.clockAt) { // not yet: a wheel turning early
		k := slotOf(m.clockAt)
		m.wheelK = k
		m.wheel.add(m, k)
		return nil, false
	}
	return m.frame(now), true
}

// Stop ends the model's own frames (the held-back ones and the clock's):
// once it returns, nothing but Finish touches the inner model, so the
// session may close its screens. Call it once Run has returned.
func (m *Model) Stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done = true
	if m.timer != nil {
		m.timer.Stop()
	}
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
