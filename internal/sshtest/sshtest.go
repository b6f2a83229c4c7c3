// Package sshtest drives the arcade the way a player's ssh client does: a
// real SSH connection, a PTY, and a terminal emulator reading the screen.
// Only tests import it.
package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// NewClientKey makes a fresh ed25519 client key.
func NewClientKey(t *testing.T) gossh.Signer {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	s, err := gossh.NewSignerFromKey(priv)
	require.NoError(t, err)
	return s
}

// Dial connects as user, with key or, when key is nil, as a keyboard-interactive guest.
func Dial(t *testing.T, addr, user string, key gossh.Signer) *gossh.Client {
	t.Helper()
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	})}
	if key != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key)}
	}
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second,
	})
	require.NoError(t, err)
	return c
}

// term is a client session with a PTY whose output feeds a terminal
// emulator, so tests read the screen as a person sees it.
type Term struct {
	t     *testing.T
	Sess  *gossh.Session
	in    io.WriteCloser
	emu   *lockedEmu
	done  chan struct{}
	close func()
}

// OpenTerm opens an 80x24 PTY session running the default program.
func OpenTerm(t *testing.T, c *gossh.Client, env map[string]string) *Term {
	t.Helper()
	return OpenTermAs(t, c, "xterm-256color", env)
}

// OpenTermAs is OpenTerm for a terminal of another kind (TERM), such as
// "dumb".
func OpenTermAs(t *testing.T, c *gossh.Client, term string, env map[string]string) *Term {
	t.Helper()
	return OpenTermWith(t, c, term, env, "", 80, 24)
}

// OpenTermCmd opens an 80x24 PTY session running command (ssh -t HOST
// command), or the default program when command is empty.
func OpenTermCmd(t *testing.T, c *gossh.Client, env map[string]string, command string) *Term {
	t.Helper()
	return OpenTermSize(t, c, env, command, 80, 24)
}

// OpenTermSize opens a w x h PTY session running command (the default
// program when empty).
func OpenTermSize(t *testing.T, c *gossh.Client, env map[string]string, command string, w, h int) *Term {
	t.Helper()
	return OpenTermWith(t, c, "xterm-256color", env, command, w, h)
}

// OpenTermWith opens a w x h PTY session of terminal kind term running
// command (the default program when empty).
func OpenTermWith(t *testing.T, c *gossh.Client, term string, env map[string]string, command string, w, h int) *Term {
	t.Helper()
	sess, err := c.NewSession()
	require.NoError(t, err)
	for k, v := range env {
		_ = sess.Setenv(k, v)
	}
	require.NoError(t, sess.RequestPty(term, h, w, gossh.TerminalModes{}))
	in, err := sess.StdinPipe()
	require.NoError(t, err)
	out, err := sess.StdoutPipe()
	require.NoError(t, err)
	emu := &lockedEmu{e: vt.NewEmulator(w, h)}
	tm := &Term{t: t, Sess: sess, in: in, emu: emu, done: make(chan struct{})}
	go func() {
		defer close(tm.done)
		_, _ = io.Copy(emu, out)
	}()
	// Answer the terminal's replies to queries, as a real terminal would.
	go func() { _, _ = io.Copy(in, emu.e) }()
	if command == "" {
		require.NoError(t, sess.Shell())
	} else {
		require.NoError(t, sess.Start(command))
	}
	tm.close = func() { _ = sess.Close() }
	t.Cleanup(tm.close)
	return tm
}

// Screen is the emulated screen as text.
func (tm *Term) Screen() string { return tm.emu.String() }

// lockedEmu serialises the emulator: its String is not safe against a
// concurrent Write, even in vt's SafeEmulator.
type lockedEmu struct {
	mu sync.Mutex
	e  *vt.Emulator
}

func (l *lockedEmu) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.e.Write(p)
}

func (l *lockedEmu) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.e.String()
}

// WaitFor waits up to 10 s for want to be on the screen and returns the screen.
func (tm *Term) WaitFor(want string) string {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s := tm.Screen(); strings.Contains(s, want) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.t.Fatalf("screen never showed %q; it shows:\n%s", want, tm.Screen())
	return ""
}

// Send types keys.
func (tm *Term) Send(keys string) {
	tm.t.Helper()
	_, err := tm.in.Write([]byte(keys))
	require.NoError(tm.t, err)
}

// Click presses and releases the left mouse button on cell (x, y), 0-based,
// as a terminal in SGR mouse mode reports it.
func (tm *Term) Click(x, y int) {
	tm.t.Helper()
	tm.Send(fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x+1, y+1, x+1, y+1))
}

// WaitFunc waits up to 10 s for ok to hold of the screen and returns it.
func (tm *Term) WaitFunc(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s := tm.Screen(); ok(s) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.t.Fatalf("screen never showed %s; it shows:\n%s", what, tm.Screen())
	return ""
}

// WaitExit waits for the server to end the session.
func (tm *Term) WaitExit() {
	tm.t.Helper()
	select {
	case <-tm.done:
	case <-time.After(10 * time.Second):
		tm.t.Fatalf("session did not end; screen:\n%s", tm.Screen())
	}
}
