package render

import (
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
	mu      sync.Mutex // guards timer against Finish
	timer   *time.Timer
	armed   bool      // a frame is due at the timer
	armedAt time.Time // when
	dirty   bool      // the view may differ from what was drawn
	pending bool      // the frame due carries input
	last    time.Time // the last frame
	lastIn  time.Time // the last frame that answered input
	done    bool
}

// frameMsg is a deferred frame coming due.
type frameMsg struct{ m *Model }

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

// SetProgram gives the model the program it runs in, for deferred frames.
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
	if m.release == nil {
		return m.inner.Init()
	}
	release := m.release
	return tea.Batch(m.inner.Init(), func() tea.Msg { _ = release(); return nil })
}

// View is empty: the program has no renderer, and the frames are drawn by
// Update.
func (m *Model) View() tea.View { return tea.View{} }

// Update runs the inner model, then draws or schedules a frame.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	input := false
	switch msg := msg.(type) {
	case frameMsg:
		if msg.m != m {
			return m, nil
		}
		m.mu.Lock()
		m.armed = false
		m.mu.Unlock()
		if m.dirty {
			m.draw(m.pending)
		}
		return m, nil
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
	m.schedule(input)
	return m, cmd
}

func (m *Model) schedule(input bool) {
	now := m.now()
	due := m.last.Add(m.interval)
	if input {
		due = m.lastIn.Add(m.interval)
	}
	if !now.Before(due) {
		m.draw(input)
		return
	}
	m.pending = m.pending || input
	m.mu.Lock()
	defer m.mu.Unlock()
	if (m.armed && !due.Before(m.armedAt)) || m.done || m.send == nil {
		return
	}
	m.armed, m.armedAt = true, due
	d := due.Sub(now)
	if m.timer == nil {
		m.timer = time.AfterFunc(d, m.fire)
	} else {
		m.timer.Reset(d)
	}
}

func (m *Model) fire() {
	m.mu.Lock()
	done := m.done
	m.mu.Unlock()
	if !done {
		m.send(frameMsg{m})
	}
}

func (m *Model) draw(input bool) {
	now := m.now()
	_ = m.scr.Draw(m.inner.View())
	m.dirty = false
	m.last = now
	if input || m.pending {
		m.lastIn = now
	}
	m.pending = false
}

// Finish draws the model's last view and gives the terminal back. Call it
// once Run has returned.
func (m *Model) Finish() error {
	m.mu.Lock()
	m.done = true
	if m.timer != nil {
		m.timer.Stop()
	}
	m.mu.Unlock()
	if err := m.scr.Draw(m.inner.View()); err != nil {
		return err
	}
	return m.scr.Close()
}
