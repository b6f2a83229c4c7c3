package arcade

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"sshuffle/internal/sshtest"
)

// readerFrame is the function ultraviolet's input goroutines run in.
const readerFrame = "ultraviolet.(*TerminalReader).StreamEvents"

// inputReaders counts goroutines inside a terminal reader.
func inputReaders() int {
	return countStacks(func(g []byte) bool { return bytes.Contains(g, []byte(readerFrame)) })
}

// countStacks counts the goroutines whose stack, in a dump of them all,
// passes match.
func countStacks(match func(stack []byte) bool) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for g := range bytes.SplitSeq(buf, []byte("\n\n")) {
		if match(g) {
			count++
		}
	}
	return count
}

// Sessions that end with keys still on their way must leave nothing
// behind. Bubble Tea's own input reader sends each key on the program's
// unbuffered message channel without watching for the end of the program,
// so a program that quit with keys pending kept a goroutine blocked in
// ultraviolet's reader forever, and with it the whole program (screen
// buffers and all): any client could grow the server without bound.
func TestEndedSessionsLeaveNoReaderBehind(t *testing.T) {
	// A short idle time makes the idle check's timer, which holds an
	// ended program until it fires, tick every 2.5 s, not every 30 s.
	ts := startServerWith(t, Config{MaxPerAddr: 100, IdleTimeout: 10 * time.Second})
	base := inputReaders()

	const n = 30
	keys := strings.Repeat("jk", 500) // 1000 keys: up and down the menu
	bursts := []string{
		keys,                                // then the connection drops
		"q" + keys,                          // quit, with 1000 keys behind it
		keys[:500] + "\x03" + keys[:500],    // ctrl+c in the middle
		keys + "q",                          // quit last, then drop at once
		"q" + strings.Repeat("\x1b[A", 300), // escape sequences, then quit
	}
	// One after another, as a hostile client would loop: connect, type a
	// burst, disconnect while the keys are still on their way.
	progs := map[weak.Pointer[tea.Program]]bool{}
	for i := range n {
		c := sshtest.Dial(t, ts.addr, fmt.Sprintf("burst%d", i), sshtest.NewClientKey(t))
		tm := sshtest.OpenTerm(t, c, nil)
		tm.WaitFor("Playing as")
		ts.srv.mu.Lock()
		for p := range ts.srv.sessions {
			progs[weak.Make(p)] = true
		}
		ts.srv.mu.Unlock()
		tm.Send(bursts[i%len(bursts)])
		_ = c.Close()
	}
	require.Len(t, progs, n)

	deadline := time.Now().Add(30 * time.Second)
	for ts.srv.Sessions() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	require.Equal(t, 0, ts.srv.Sessions(), "sessions still running")

	// Ended programs must go: no reader goroutine left, every program
	// collected. The deadline only catches a hang.
	readers, alive := 0, 0
	for time.Now().Before(deadline) {
		runtime.GC()
		readers, alive = inputReaders()-base, 0
		for w := range progs {
			if w.Value() != nil {
				alive++
			}
		}
		if readers <= 0 && alive == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	require.True(t, readers <= 0 && alive == 0,
		"after %d sessions ended: %d input reader goroutines left, %d programs still alive", n, readers, alive)
}

// blocked is a model whose commands wait until the test ends: a stand-in
// for the idle check's 30 s tick, or a long search.
type blocked struct{ release chan struct{} }

func (m blocked) wait() tea.Msg { <-m.release; return nil }

func (m blocked) Init() tea.Cmd { return m.wait }

func (m blocked) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		return m, tea.Batch(m.wait, tea.Quit)
	}
	return m, nil
}

func (m blocked) View() tea.View { return tea.NewView("waiting") }

// runBlocked runs a program of blocked to its end and closes done, as the
// program middleware does, and returns a weak pointer to the program.
func runBlocked(t *testing.T, m blocked, done chan struct{}) weak.Pointer[tea.Program] {
	p := tea.NewProgram(detached{app: m, done: done}, tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithoutSignalHandler(), tea.WithWindowSize(400, 200))
	_, err := p.Run()
	require.NoError(t, err)
	p.Kill()
	close(done)
	return weak.Make(p)
}

// Commands still waiting when a program ends (one on its own, one in a
// batch) must not keep the program, and its 400x200 screen buffers, alive.
func TestWaitingCommandsDoNotHoldTheProgram(t *testing.T) {
	m := blocked{release: make(chan struct{})}
	t.Cleanup(func() { close(m.release) })
	w := runBlocked(t, m, make(chan struct{}))
	for deadline := time.Now().Add(10 * time.Second); w.Value() != nil && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	require.True(t, w.Value() == nil, "the ended program is still alive")
}
