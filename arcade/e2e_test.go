package arcade

import (
	"errors"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/hostkeys"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
	"sshuffle/store/badger"
)

type testServer struct {
	addr  string
	srv   *Server
	store store.Store
}

func startServer(t *testing.T) *testServer {
	t.Helper()
	return startServerWith(t, Config{})
}

func startServerWith(t *testing.T, cfg Config) *testServer {
	t.Helper()
	dir := t.TempDir()
	key, err := hostkeys.LoadOrCreate(dir)
	require.NoError(t, err)
	st, err := badger.Open(filepath.Join(dir, "store"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	cfg.HostKeyPEM = key.PEM
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	srv, err := New(cfg, st)
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

func TestEndToEndKlondikeAndReconnect(t *testing.T) {
	ts := startServer(t)
	key := sshtest.NewClientKey(t)

	c := sshtest.Dial(t, ts.addr, "alice", key)
	tm := sshtest.OpenTerm(t, c, map[string]string{"LANG": "en_US.UTF-8"})
	s := tm.WaitFor("Klondike · Draw 1")
	require.Contains(t, s, "FreeCell")
	require.Contains(t, s, "Spider · 4 suits")
	require.Contains(t, s, "Kings in the Corner")
	require.Contains(t, s, "Playing as alice")

	tm.Send("\r") // open Klondike Draw 1
	tm.WaitFor("Moves 0")
	tm.Send("d") // turn a stock card
	s = tm.WaitFor("Moves 1")
	require.Contains(t, s, "23", "the stock count drops to 23")
	tm.Send("q") // back to the menu: the game is saved
	tm.WaitFor("Playing as alice")
	tm.Send("q") // the menu asks once before quitting
	tm.WaitFor("q again to quit")
	tm.Send("q")
	tm.WaitExit()
	c.Close()

	// Same key again: same account, and the saved game comes back.
	c2 := sshtest.Dial(t, ts.addr, "someone-else", key)
	defer c2.Close()
	tm2 := sshtest.OpenTerm(t, c2, nil)
	tm2.WaitFor("Welcome back, alice")
	tm2.Send("\r")
	s = tm2.WaitFor("Resumed your saved game")
	require.Contains(t, s, "Moves 1")
}

func TestIllegalMoveShowsReason(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "bob", sshtest.NewClientKey(t))
	defer c.Close()
	tm := sshtest.OpenTerm(t, c, nil)
	tm.WaitFor("Playing as bob")
	tm.Send("\r")
	tm.WaitFor("Moves 0")
	// Pick up the waste (empty) -> a sentence, not a crash.
	tm.Send("k") // up to the top row
	tm.Send("l") // the waste
	tm.Send(" ")
	tm.WaitFor("no card there")
}

func TestGuestAndCommands(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "whoever", nil)
	defer c.Close()
	tm := sshtest.OpenTerm(t, c, nil)
	tm.WaitFor("Playing as guest")
	tm.WaitFor("ssh-keygen -t ed25519")

	kc := sshtest.Dial(t, ts.addr, "carol", sshtest.NewClientKey(t))
	defer kc.Close()
	sess, err := kc.NewSession()
	require.NoError(t, err)
	out, err := sess.Output("help")
	require.NoError(t, err)
	// The address the client reached, not a fixed 2222: help must print a
	// line the player can paste.
	_, port, _ := net.SplitHostPort(ts.addr)
	require.Contains(t, string(out), "ssh -p "+port+" 127.0.0.1 help")

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
	c := sshtest.Dial(t, ts.addr, "dave", sshtest.NewClientKey(t))
	defer c.Close()
	tm := sshtest.OpenTerm(t, c, nil)
	tm.WaitFor("Playing as dave")
	require.Equal(t, 1, ts.srv.Sessions())
	require.NoError(t, tm.Sess.Close())
	deadline := time.Now().Add(5 * time.Second)
	for ts.srv.Sessions() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	require.Equal(t, 0, ts.srv.Sessions())
}

func TestPerAddressCapAndIdle(t *testing.T) {
	ts := startServerWith(t, Config{MaxPerAddr: 1, IdleTimeout: 600 * time.Millisecond})
	key := sshtest.NewClientKey(t)
	c := sshtest.Dial(t, ts.addr, "fay", key)
	defer c.Close()
	tm := sshtest.OpenTerm(t, c, nil)
	tm.WaitFor("Playing as fay")

	// The second session is refused when its channel opens, with the
	// reason: OpenSSH prints it ("open failed: resource shortage: ...").
	c2 := sshtest.Dial(t, ts.addr, "fay", key)
	defer c2.Close()
	_, err := c2.NewSession()
	require.Error(t, err)
	require.Contains(t, err.Error(), "Too many sessions from your address")

	// No key pressed: the first session is closed politely.
	tm.WaitFor("without a key press")
	tm.WaitExit()
}

// A taken name sends the newcomer to the name screen, where a free name
// can be claimed.
func TestTakenNameAsksForAnother(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "rita", sshtest.NewClientKey(t))
	defer c.Close()
	sshtest.OpenTerm(t, c, nil).WaitFor("Playing as rita")

	c2 := sshtest.Dial(t, ts.addr, "rita", sshtest.NewClientKey(t))
	defer c2.Close()
	tm := sshtest.OpenTerm(t, c2, nil)
	s := tm.WaitFor(`The name "rita" is taken.`)
	require.Contains(t, s, "3-20 letters", "the hint in the empty field shows whole")
	tm.Send("rita\r")
	tm.WaitFor("taken; try another")
	tm.Send("\x7f\x7f\x7f\x7frita2\r")
	tm.WaitFor("Playing as rita2")
}
