package render

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/stretchr/testify/require"
)

// clockModel shows a counter that turns by itself every period, like a
// game clock: its view changes with no message.
type clockModel struct {
	mu      sync.Mutex
	start   time.Time
	period  time.Duration
	stopped bool
	updates int
	boom    bool
}

func (c *clockModel) Init() tea.Cmd { return nil }
func (c *clockModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates++
	return c, nil
}

func (c *clockModel) View() tea.View {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.boom {
		panic("boom")
	}
	n := int(time.Since(c.start) / c.period)
	// every cell changes at a turn, so a frame's text comes out whole
	v := tea.NewView(strings.Repeat(string(rune('a'+n%26)), 6))
	v.AltScreen = true
	return v
}

func (c *clockModel) NextChange() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return 0
	}
	return c.period - time.Since(c.start)%c.period
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type fakeProgram struct {
	mu   sync.Mutex
	msgs []tea.Msg
}

func (p *fakeProgram) Send(m tea.Msg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, m)
}
func (p *fakeProgram) ReleaseTerminal() error { return nil }
func (p *fakeProgram) sent() []tea.Msg {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]tea.Msg(nil), p.msgs...)
}

// session is a 20x3 session of model on w, drawn once.
func session(model tea.Model, w io.Writer, fps int, p Program) *Model {
	m := New(model, NewScreen(w, 20, 3, colorprofile.ANSI256), fps)
	m.SetProgram(p)
	m.Update(tea.WindowSizeMsg{Width: 20, Height: 3})
	return m
}

// A clock is drawn when it turns, with no message to the program and no
// Update, and stops being drawn once it says it no longer turns.
func TestClockDrawnWithoutMessages(t *testing.T) {
	out := &syncBuf{}
	c := &clockModel{start: time.Now(), period: 40 * time.Millisecond}
	p := &fakeProgram{}
	m := session(c, out, 60, p)
	require.Equal(t, 1, c.updates)
	n := len(out.String())
	for range 3 { // three turns
		require.Eventually(t, func() bool { return len(out.String()) > n }, 2*time.Second, 5*time.Millisecond)
		n = len(out.String())
	}
	require.Equal(t, 1, c.updates, "no Update for a clock turn")
	require.Empty(t, p.sent(), "no message to the program for a clock turn")

	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	m.Update(tea.KeyPressMsg{Code: 'x'}) // a frame that learns the clock stopped
	time.Sleep(20 * time.Millisecond)
	n = len(out.String())
	time.Sleep(150 * time.Millisecond)
	require.Equal(t, n, len(out.String()), "nothing drawn once the clock stops")
	require.NoError(t, m.Finish())
}

// A panic in a view drawn on the timer's goroutine does not take the
// server down: it is handed to the program, whose Update raises it where
// Bubble Tea's recovery ends that session alone.
func TestTimerFramePanicReachesProgram(t *testing.T) {
	out := &syncBuf{}
	c := &clockModel{start: time.Now(), period: 20 * time.Millisecond}
	p := &fakeProgram{}
	m := session(c, out, 60, p)
	c.mu.Lock()
	c.boom = true
	c.mu.Unlock()
	require.Eventually(t, func() bool { return len(p.sent()) > 0 }, 2*time.Second, 5*time.Millisecond)
	msg := p.sent()[0]
	require.IsType(t, viewPanic{}, msg)
	require.PanicsWithValue(t, msg.(viewPanic).value, func() { m.Update(msg) })
	require.Contains(t, msg.(viewPanic).value, "boom")
}

// Keys within a frame of each other share one frame, drawn when the
// frame's time is up, on the timer.
func TestInputWithinAFrameShareOne(t *testing.T) {
	out := &syncBuf{}
	c := &clockModel{start: time.Now(), period: time.Hour}
	m := New(c, NewScreen(out, 20, 3, colorprofile.ANSI256), 10)
	m.SetProgram(&fakeProgram{})
	m.Update(tea.KeyPressMsg{Code: 'a'})
	first := len(out.String())
	require.Positive(t, first)
	c.mu.Lock()
	c.start = c.start.Add(-time.Hour - time.Millisecond) // the view now differs
	c.mu.Unlock()
	m.Update(tea.KeyPressMsg{Code: 'b'})
	m.Update(tea.KeyPressMsg{Code: 'c'})
	require.Equal(t, first, len(out.String()), "held for the frame's time")
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "bbbbbb") }, time.Second, 5*time.Millisecond)
	require.NoError(t, m.Finish())
}

// A session that is busy when its clock is due (its program in Update, or
// stuck writing to a client that does not read) holds up no other
// session's clock, and its own turns once it is free.
func TestStuckSessionHoldsNoOtherClock(t *testing.T) {
	start := time.Now()
	outs := []*syncBuf{{}, {}}
	var ms []*Model
	for _, out := range outs {
		c := &clockModel{start: start, period: 50 * time.Millisecond}
		m := session(c, out, 60, &fakeProgram{})
		ms = append(ms, m)
	}
	n0 := len(outs[0].String())
	ms[0].mu.Lock() // stuck
	n1 := len(outs[1].String())
	for range 2 { // two turns of the other clock
		require.Eventually(t, func() bool { return len(outs[1].String()) > n1 }, 2*time.Second, 5*time.Millisecond)
		n1 = len(outs[1].String())
	}
	require.Equal(t, n0, len(outs[0].String()))
	ms[0].mu.Unlock()
	for range 2 { // and two of its own, once free
		require.Eventually(t, func() bool { return len(outs[0].String()) > n0 }, 2*time.Second, 5*time.Millisecond)
		n0 = len(outs[0].String())
	}
	for _, m := range ms {
		require.NoError(t, m.Finish())
	}
}

// Frames of one slot are made before any is written: the wheel writes
// them one after another.
func TestWheelMakesFramesBeforeWriting(t *testing.T) {
	var mu sync.Mutex
	var events []string
	start := time.Now()
	var ms []*Model
	for i := range 3 {
		c := &clockModel{start: start, period: 100 * time.Millisecond}
		w := &eventWriter{mu: &mu, events: &events, name: strconv.Itoa(i)}
		m := session(&viewSpy{clockModel: c, mu: &mu, events: &events, name: strconv.Itoa(i)}, w, 60, &fakeProgram{})
		ms = append(ms, m)
	}
	mu.Lock()
	events = events[:0]
	mu.Unlock()
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(events) >= 6
	}, 2*time.Second, 5*time.Millisecond)
	mu.Lock()
	got := append([]string(nil), events[:6]...)
	mu.Unlock()
	views, writes := strings.Join(got[:3], " "), strings.Join(got[3:], " ")
	require.NotContains(t, views, "write", "every view of the slot before the first write: %v", got)
	require.NotContains(t, writes, "view", "%v", got)
	for _, m := range ms {
		require.NoError(t, m.Finish())
	}
}

type viewSpy struct {
	*clockModel
	mu     *sync.Mutex
	events *[]string
	name   string
}

func (v *viewSpy) View() tea.View {
	v.mu.Lock()
	*v.events = append(*v.events, "view"+v.name)
	v.mu.Unlock()
	return v.clockModel.View()
}

func (v *viewSpy) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	v.clockModel.Update(msg)
	return v, nil
}

type eventWriter struct {
	mu     *sync.Mutex
	events *[]string
	name   string
}

func (w *eventWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	*w.events = append(*w.events, "write"+w.name)
	w.mu.Unlock()
	return len(p), nil
}

// stuckWriter takes the first frame and then blocks, like a client that
// stopped reading once its SSH window filled.
type stuckWriter struct {
	n       atomic.Int32
	release chan struct{}
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	if w.n.Add(1) > 1 {
		<-w.release
	}
	return len(p), nil
}

// A write that blocks on the wheel holds up the other frames of its slot
// for writeStall at most, and later slots not at all.
func TestBlockedWriteHoldsNoOtherClock(t *testing.T) {
	start := time.Now()
	stuck := &stuckWriter{release: make(chan struct{})}
	out := &syncBuf{}
	var ms []*Model
	for _, w := range []io.Writer{stuck, out} { // the stuck one first in the slot
		c := &clockModel{start: start, period: 100 * time.Millisecond}
		m := session(c, w, 60, &fakeProgram{})
		ms = append(ms, m)
	}
	n := len(out.String())
	for range 4 {
		require.Eventually(t, func() bool { return len(out.String()) > n }, time.Second, 2*time.Millisecond)
		n = len(out.String())
	}
	require.Greater(t, stuck.n.Load(), int32(1), "the stuck session's write was tried")
	close(stuck.release)
	for _, m := range ms {
		require.NoError(t, m.Finish())
	}
}

// Once Stop returns, no frame of the model's own (a clock turn, a held-back
// frame) calls its view: the session may close its screens.
func TestStopEndsOwnFrames(t *testing.T) {
	var mu sync.Mutex
	var events []string
	c := &clockModel{start: time.Now(), period: 20 * time.Millisecond}
	m := session(&viewSpy{clockModel: c, mu: &mu, events: &events}, io.Discard, 10, &fakeProgram{})
	m.Update(tea.KeyPressMsg{Code: 'a'}) // held back: due in 100 ms
	m.Stop()
	mu.Lock()
	n := len(events)
	mu.Unlock()
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, n, len(events), "no view after Stop")
}
