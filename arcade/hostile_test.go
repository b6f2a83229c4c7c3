package arcade

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/internal/sshtest"
)

// Tests of what a hostile client does on the wire: windows, env floods,
// channels, idle slots, early resizes, long commands. Each drives the
// server with golang.org/x/crypto/ssh on loopback.

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// within runs fn and fails the test if it has not returned in 10 s: the
// bugs here are hangs, and a hang must fail, not stall the suite.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return within 10 s", what)
	}
}

// waitSizes waits for the server's one live program and returns its size.
func waitSizes(t *testing.T, ts *testServer, want func([2]int) bool) [2]int {
	t.Helper()
	var last [][2]int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		last = ts.srv.windowSizes()
		if len(last) == 1 && want(last[0]) {
			return last[0]
		}
	}
	t.Fatalf("program sizes never matched; last %v", last)
	return [2]int{}
}

// The first size comes from the pty-req, and a later one from a
// window-change; both are clamped before anything is allocated for them.
func TestHugeWindowIsClamped(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "huge", sshtest.NewClientKey(t))
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	defer sess.Close()
	// 1000x500 is big enough to show the clamp and small enough that the
	// unfixed server does not take the test machine's memory with it.
	require.NoError(t, sess.RequestPty("xterm-256color", 500, 1000, gossh.TerminalModes{}))
	sess.Stdout = io.Discard
	require.NoError(t, sess.Shell())
	got := waitSizes(t, ts, func(wh [2]int) bool { return wh[0] > 0 })
	require.Equal(t, [2]int{400, 200}, got, "the first window is clamped to 400x200")

	require.NoError(t, sess.WindowChange(80, 100))
	waitSizes(t, ts, func(wh [2]int) bool { return wh == [2]int{100, 80} })
	require.NoError(t, sess.WindowChange(60000, 60000))
	waitSizes(t, ts, func(wh [2]int) bool { return wh == [2]int{400, 200} })
}

// Env requests are capped in number and size, and only the
// variables sshuffle reads are kept.
func TestEnvRequestsAreBounded(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "envy", sshtest.NewClientKey(t))
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	defer sess.Close()
	require.NoError(t, sess.Setenv("LANG", "en_US.UTF-8"))
	require.Error(t, sess.Setenv("LC_ALL", strings.Repeat("x", 200<<10)), "a 200 KB value is refused")
	require.Error(t, sess.Setenv("EVIL", "1"), "a variable sshuffle does not read is refused")
	accepted := 1
	for i := range 100 {
		if sess.Setenv("LC_X"+string(rune('A'+i%26))+string(rune('A'+i/26)), "C") == nil {
			accepted++
		}
	}
	require.Equal(t, maxEnvVars, accepted, "at most %d variables are kept", maxEnvVars)

	// The session still starts, with the locale it was given.
	require.NoError(t, sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}))
	sess.Stdout = io.Discard
	require.NoError(t, sess.Shell())
	waitSizes(t, ts, func(wh [2]int) bool { return wh == [2]int{80, 24} })
}

// Session channels are capped per connection, and count against
// the per-address cap.
func TestChannelsAreCapped(t *testing.T) {
	ts := startServerWith(t, Config{MaxPerAddr: 6})
	key := sshtest.NewClientKey(t)
	c := sshtest.Dial(t, ts.addr, "chan", key)
	defer c.Close()
	for range 4 {
		ch, _, err := c.OpenChannel("session", nil)
		require.NoError(t, err)
		defer ch.Close()
	}
	_, _, err := c.OpenChannel("session", nil)
	require.Error(t, err)
	require.Contains(t, err.Error(), "Too many sessions on one connection")

	c2 := sshtest.Dial(t, ts.addr, "chan", key)
	defer c2.Close()
	for range 2 {
		ch, _, err := c2.OpenChannel("session", nil)
		require.NoError(t, err)
		defer ch.Close()
	}
	_, _, err = c2.OpenChannel("session", nil)
	require.Error(t, err)
	require.Contains(t, err.Error(), "Too many sessions from your address")
}

// waitClosed waits for the server to drop the client's connection.
func waitClosed(t *testing.T, c *gossh.Client, what string) {
	t.Helper()
	within(t, what, func() { _ = c.Wait() })
}

// A connection that holds its slot without running a session is
// closed after the start deadline, whatever it did or did not open.
func TestIdleConnectionsLoseTheirSlot(t *testing.T) {
	ts := startServerWith(t, Config{StartTimeout: 300 * time.Millisecond})
	key := sshtest.NewClientKey(t)

	t.Run("no channel", func(t *testing.T) {
		c := sshtest.Dial(t, ts.addr, "lurk", key)
		defer c.Close()
		waitClosed(t, c, "a connection with no channel")
	})
	t.Run("pty but no shell", func(t *testing.T) {
		c := sshtest.Dial(t, ts.addr, "lurk", key)
		defer c.Close()
		sess, err := c.NewSession()
		require.NoError(t, err)
		require.NoError(t, sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}))
		waitClosed(t, c, "a connection with a PTY and no shell")
	})
	t.Run("session ended, connection kept", func(t *testing.T) {
		c := sshtest.Dial(t, ts.addr, "lurk", key)
		defer c.Close()
		sess, err := c.NewSession()
		require.NoError(t, err)
		_, err = sess.Output("help")
		require.NoError(t, err)
		waitClosed(t, c, "a connection whose session ended")
	})
	t.Run("playing is not idle", func(t *testing.T) {
		c := sshtest.Dial(t, ts.addr, "lurk", key)
		defer c.Close()
		tm := sshtest.OpenTerm(t, c, nil)
		tm.WaitFor("Playing as lurk")
		time.Sleep(time.Second) // a few start deadlines
		tm.Send("j")
		_, err := c.NewSession() // the connection is still there
		require.NoError(t, err)
	})
}

// The idle timeout runs from the last input wherever the client
// is, not only inside the program: a command session with a PTY that
// never reads nor ends is closed too.
func TestIdleBackstopClosesAConnection(t *testing.T) {
	ts := startServerWith(t, Config{IdleTimeout: 400 * time.Millisecond, StartTimeout: time.Hour})
	c := sshtest.Dial(t, ts.addr, "still", sshtest.NewClientKey(t))
	defer c.Close()
	// Channels open, a session started elsewhere: not idle-free.
	sess, err := c.NewSession()
	require.NoError(t, err)
	require.NoError(t, sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}))
	sess.Stdout = io.Discard
	require.NoError(t, sess.Shell())
	waitClosed(t, c, "an idle connection")
}

// Refusals of one address within a minute are logged once, then
// counted.
func TestRefusalsAreLoggedOnceAMinute(t *testing.T) {
	var logs syncBuffer
	clk := &fakeClock{t: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	var mu sync.Mutex
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clk.t }
	ts := startServerWith(t, Config{MaxPerAddr: 1, Now: now, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	key := sshtest.NewClientKey(t)
	for range 2 { // MaxPerAddr*2 raw connections are let in
		c := sshtest.Dial(t, ts.addr, "many", key)
		defer c.Close()
	}
	for range 5 {
		_, err := gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{User: "many", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
			HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
		require.Error(t, err)
	}
	require.Equal(t, 1, strings.Count(logs.String(), "msg=refused "), logs.String())
	mu.Lock()
	clk.t = clk.t.Add(61 * time.Second)
	mu.Unlock()
	ts.srv.sweep(now())
	require.Contains(t, logs.String(), `msg="refused again" remote=127.0.0.1 times=4`)
}

func TestAddrKeyGroupsIPv6By64(t *testing.T) {
	a := &net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:aaaa::1"), Port: 1}
	b := &net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:bbbb::2"), Port: 2}
	other := &net.TCPAddr{IP: net.ParseIP("2001:db8:1:3::1"), Port: 3}
	require.Equal(t, addrKey(a), addrKey(b))
	require.NotEqual(t, addrKey(a), addrKey(other))
	require.Equal(t, "192.0.2.7", addrKey(&net.TCPAddr{IP: net.ParseIP("::ffff:192.0.2.7")}))
}

// A window-change between pty-req and shell must not keep the
// shell from being answered.
func TestResizeBeforeShellStarts(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "early", sshtest.NewClientKey(t))
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	defer sess.Close()
	require.NoError(t, sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}))
	require.NoError(t, sess.WindowChange(30, 100))
	require.NoError(t, sess.WindowChange(31, 101))
	sess.Stdout = io.Discard
	within(t, "the shell request", func() { require.NoError(t, sess.Shell()) })
	waitSizes(t, ts, func(wh [2]int) bool { return wh == [2]int{101, 31} })
}

// A command longer than MaxCommandLen is refused before it is
// split, and the log keeps a short prefix of it.
func TestLongCommandIsRefusedUnsplit(t *testing.T) {
	var logs syncBuffer
	ts := startServerWith(t, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	c := sshtest.Dial(t, ts.addr, "longcmd", sshtest.NewClientKey(t))
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	var stderr bytes.Buffer
	sess.Stderr = &stderr
	cmd := strings.Repeat("'a b' ", 100<<10/6)
	var exit *gossh.ExitError
	within(t, "a 100 KB command", func() {
		err = sess.Run(cmd)
	})
	require.True(t, errors.As(err, &exit), "%v", err)
	require.Equal(t, 1, exit.ExitStatus())
	require.Contains(t, stderr.String(), "commands are at most 4096 bytes")
	for _, line := range strings.Split(logs.String(), "\n") {
		require.Less(t, len(line), 1000, "a log line keeps a short prefix of the command")
	}
	require.Contains(t, logs.String(), "command_bytes=")
}

// A PTY of 0x0 (ssh -tt from a script) gets a sentence, not a blank screen.
func TestZeroSizePtyGetsAMessage(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "script", sshtest.NewClientKey(t))
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	require.NoError(t, sess.RequestPty("xterm", 0, 0, gossh.TerminalModes{}))
	var out syncBuffer
	sess.Stdout, sess.Stderr = &out, &out
	within(t, "a 0x0 session", func() { err = sess.Run("") })
	require.Error(t, err)
	require.Contains(t, out.String(), "reports a 0x0 window")
}

func TestHealthCommand(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "ops", nil)
	defer c.Close()
	sess, err := c.NewSession()
	require.NoError(t, err)
	out, err := sess.Output("health")
	require.NoError(t, err)
	require.Equal(t, "ok\n", string(out))
}

func TestBurstIsOverAfterTheCrowdLeaves(t *testing.T) {
	var b burst
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	require.False(t, b.over(200, t0))
	require.False(t, b.over(40, t0.Add(time.Second)), "a quarter of the peak starts the wait")
	require.False(t, b.over(45, t0.Add(30*time.Second)))
	require.True(t, b.over(10, t0.Add(46*time.Second)))
	require.False(t, b.over(10, t0.Add(200*time.Second)), "once per crowd")
	require.False(t, b.over(20, t0.Add(201*time.Second)))
	var small burst
	small.over(10, t0)
	require.False(t, small.over(0, t0.Add(time.Hour)), "a small crowd is not worth a collection")
}
