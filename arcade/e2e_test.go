package arcade

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/hostkeys"
	"sshuffle/store"
)

type testServer struct {
	addr  string
	srv   *Server
	store *store.Store
}

func startServer(t *testing.T) *testServer {
	t.Helper()
	dir := t.TempDir()
	key, err := hostkeys.LoadOrCreate(dir)
	require.NoError(t, err)
	st, err := store.Open(filepath.Join(dir, "store"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	srv, err := New(Config{HostKeyPEM: key.PEM, Logger: slog.New(slog.DiscardHandler)}, st)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() {
		_ = srv.Shutdown(t.Context())
		_ = st.Close()
	})
	return &testServer{addr: l.Addr().String(), srv: srv, store: st}
}

func newClientKey(t *testing.T) gossh.Signer {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	s, err := gossh.NewSignerFromKey(priv)
	require.NoError(t, err)
	return s
}

func dial(t *testing.T, addr, user string, key gossh.Signer) *gossh.Client {
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
type term struct {
	t     *testing.T
	sess  *gossh.Session
	in    io.WriteCloser
	emu   *lockedEmu
	done  chan struct{}
	close func()
}

func openTerm(t *testing.T, c *gossh.Client, env map[string]string) *term {
	t.Helper()
	sess, err := c.NewSession()
	require.NoError(t, err)
	for k, v := range env {
		_ = sess.Setenv(k, v)
	}
	require.NoError(t, sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}))
	in, err := sess.StdinPipe()
	require.NoError(t, err)
	out, err := sess.StdoutPipe()
	require.NoError(t, err)
	emu := &lockedEmu{e: vt.NewEmulator(80, 24)}
	tm := &term{t: t, sess: sess, in: in, emu: emu, done: make(chan struct{})}
	go func() {
		defer close(tm.done)
		_, _ = io.Copy(emu, out)
	}()
	// Answer the terminal's replies to queries, as a real terminal would.
	go func() { _, _ = io.Copy(in, emu.e) }()
	require.NoError(t, sess.Shell())
	tm.close = func() { _ = sess.Close() }
	t.Cleanup(tm.close)
	return tm
}

func (tm *term) screen() string { return tm.emu.String() }

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

func (tm *term) waitFor(want string) string {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s := tm.screen(); strings.Contains(s, want) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.t.Fatalf("screen never showed %q; it shows:\n%s", want, tm.screen())
	return ""
}

func (tm *term) send(keys string) {
	tm.t.Helper()
	_, err := tm.in.Write([]byte(keys))
	require.NoError(tm.t, err)
}

func (tm *term) waitExit() {
	tm.t.Helper()
	select {
	case <-tm.done:
	case <-time.After(10 * time.Second):
		tm.t.Fatalf("session did not end; screen:\n%s", tm.screen())
	}
}

func TestEndToEndKlondikeAndReconnect(t *testing.T) {
	ts := startServer(t)
	key := newClientKey(t)

	c := dial(t, ts.addr, "alice", key)
	tm := openTerm(t, c, map[string]string{"LANG": "en_US.UTF-8"})
	s := tm.waitFor("Klondike · Draw 1")
	require.Contains(t, s, "FreeCell")
	require.Contains(t, s, "Spider · 4 suits")
	require.Contains(t, s, "Kings in the Corner")
	require.Contains(t, s, "Playing as alice")

	tm.send("\r") // open Klondike Draw 1
	tm.waitFor("Moves 0")
	tm.send("d") // turn a stock card
	s = tm.waitFor("Moves 1")
	require.Contains(t, s, "23", "the stock count drops to 23")
	tm.send("q") // back to the menu: the game is saved
	tm.waitFor("Playing as alice")
	tm.send("q")
	tm.waitExit()
	c.Close()

	// Same key again: same account, and the saved game comes back.
	c2 := dial(t, ts.addr, "someone-else", key)
	defer c2.Close()
	tm2 := openTerm(t, c2, nil)
	tm2.waitFor("Welcome back, alice")
	tm2.send("\r")
	s = tm2.waitFor("Resumed your saved game")
	require.Contains(t, s, "Moves 1")
}

func TestIllegalMoveShowsReason(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.addr, "bob", newClientKey(t))
	defer c.Close()
	tm := openTerm(t, c, nil)
	tm.waitFor("Playing as bob")
	tm.send("\r")
	tm.waitFor("Moves 0")
	// Pick up the waste (empty) -> a sentence, not a crash.
	tm.send("k") // up to the top row
	tm.send("l") // the waste
	tm.send(" ")
	tm.waitFor("no card there")
}

func TestGuestAndCommands(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.addr, "whoever", nil)
	defer c.Close()
	tm := openTerm(t, c, nil)
	tm.waitFor("Playing as guest")
	tm.waitFor("Make a key with ssh-keygen")

	kc := dial(t, ts.addr, "carol", newClientKey(t))
	defer kc.Close()
	sess, err := kc.NewSession()
	require.NoError(t, err)
	out, err := sess.Output("help")
	require.NoError(t, err)
	require.Contains(t, string(out), "ssh -p 2222 HOST")

	sess, err = kc.NewSession()
	require.NoError(t, err)
	_, err = sess.Output("rm -rf /")
	var exit *gossh.ExitError
	require.True(t, errors.As(err, &exit), "an unknown command exits non-zero: %v", err)
	require.Equal(t, 1, exit.ExitStatus())

	// Port forwarding is refused.
	_, err = kc.Dial("tcp", "127.0.0.1:1")
	require.Error(t, err)
	// Subsystems (sftp) are refused.
	sess, err = kc.NewSession()
	require.NoError(t, err)
	require.Error(t, sess.RequestSubsystem("sftp"))
}

// A client that closes its session but keeps the connection must not leave
// a program spinning on a closed window channel (the Wish v2.0.5 bug).
func TestClosedSessionEndsProgram(t *testing.T) {
	ts := startServer(t)
	c := dial(t, ts.addr, "dave", newClientKey(t))
	defer c.Close()
	tm := openTerm(t, c, nil)
	tm.waitFor("Playing as dave")
	require.Equal(t, 1, ts.srv.Sessions())
	require.NoError(t, tm.sess.Close())
	deadline := time.Now().Add(5 * time.Second)
	for ts.srv.Sessions() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	require.Equal(t, 0, ts.srv.Sessions())
}
