package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/games"
	"sshuffle/internal/sshtest"
)

func TestDealCommand(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"deal", "freecell", "1"}, &out, &errb))
	require.True(t, strings.HasPrefix(out.String(), "JD 2D 9H JC 5D 7H 7C 5H\n"), out.String())
	out.Reset()
	require.Equal(t, 0, run([]string{"deal", "klondike", "5", "draw3"}, &out, &errb))
	require.Contains(t, out.String(), "column 7")
	require.Equal(t, 2, run([]string{"deal", "chess", "1"}, &out, &errb))
	require.Equal(t, 2, run([]string{"deal", "klondike", "x"}, &out, &errb))
	require.Equal(t, 2, run([]string{"frobnicate"}, &out, &errb))
}

// server is the real binary running in the background.
type server struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	logs bytes.Buffer
	done chan error
}

func (s *server) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// buildBinary builds sshuffle once for the tests that run it, into a
// folder removed when the package's tests end (see TestMain).
func buildBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sshuffle-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binDir = dir
		builtBin = filepath.Join(dir, "sshuffle")
		build := exec.Command("go", "build", "-o", builtBin, ".")
		build.Stderr = os.Stderr
		buildErr = build.Run()
	})
	require.NoError(t, buildErr)
	return builtBin
}

var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

func startBinary(t *testing.T, bin, addr, data string) *server {
	t.Helper()
	return startBinaryArgs(t, bin, "serve", "--addr", addr, "--data", data)
}

func startBinaryArgs(t *testing.T, bin string, args ...string) *server {
	t.Helper()
	s := &server{cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	pr, pw := io.Pipe()
	s.cmd.Stderr = pw
	require.NoError(t, s.cmd.Start())
	listening := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		once := sync.Once{}
		for sc.Scan() {
			s.mu.Lock()
			s.logs.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
			if strings.Contains(sc.Text(), "msg=listening") {
				once.Do(func() { close(listening) })
			}
		}
	}()
	go func() { s.done <- s.cmd.Wait(); pw.Close() }()
	t.Cleanup(func() { _ = s.cmd.Process.Kill() })
	select {
	case <-listening:
	case <-time.After(20 * time.Second):
		t.Fatalf("server did not start:\n%s", s.log())
	}
	return s
}

// SIGTERM: sessions are told, their games saved, and the process exits
// within 5 seconds; after a restart the same key finds its account and game.
func TestSIGTERMSavesAndRestartKeepsAccount(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildBinary(t)
	data := filepath.Join(dir, "data")
	addr := freePort(t)

	srv := startBinary(t, bin, addr, data)
	st, err := os.Stat(filepath.Join(data, "host_ed25519"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	require.Contains(t, srv.log(), "fingerprint=SHA256:")

	key := sshtest.NewClientKey(t)
	c := sshtest.Dial(t, addr, "erin", key)
	tm := sshtest.OpenTerm(t, c, nil)
	tm.WaitFor("Playing as erin")
	tm.Send("\r")
	tm.WaitFor("Moves 0")
	tm.Send("d")
	tm.WaitFor("Moves 1")

	start := time.Now()
	require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-srv.done:
		require.NoError(t, err, srv.log())
	case <-time.After(5 * time.Second):
		t.Fatalf("server still running 5 s after SIGTERM:\n%s", srv.log())
	}
	t.Logf("exit after SIGTERM took %s", time.Since(start))
	tm.WaitFor("restarting")
	c.Close()

	srv2 := startBinary(t, bin, addr, data)
	require.Contains(t, srv2.log(), "created=false", "the host key is reused")
	c2 := sshtest.Dial(t, addr, "erin", key)
	defer c2.Close()
	tm2 := sshtest.OpenTerm(t, c2, nil)
	tm2.WaitFor("Welcome back, erin")
	tm2.Send("\r")
	s := tm2.WaitFor("Resumed your saved game")
	require.Contains(t, s, "Moves 1")
}

func TestSolveAndReplayCommands(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"solve", "freecell", "617", "--moves"}, &out, &errb), errb.String())
	moves := out.String()
	require.Regexp(t, `^[1-8a-d][1-8a-dh]\n`, moves)

	out.Reset()
	require.Equal(t, 0, replay([]string{"freecell", "617"}, strings.NewReader(moves), &out, &errb), out.String())
	require.Contains(t, out.String(), "won in")

	// A broken solution says where it first goes wrong.
	out.Reset()
	bad := strings.Replace(moves, "\n", "\n2h\n", 1)
	require.Equal(t, 1, replay([]string{"freecell", "617"}, strings.NewReader(bad), &out, &errb))
	require.Contains(t, out.String(), "move 2")

	out.Reset()
	require.Equal(t, 0, run([]string{"solve", "tripeaks", "--deals", "1-20"}, &out, &errb), errb.String())
	require.Regexp(t, `solved \d+ \(`, out.String())
	require.Contains(t, out.String(), "deals 1-20 (20)")

	// Three workers share out the deals, each deal searched once (a deal
	// no worker took would count as undecided); one worker runs on one
	// core, and the process gets its cores back afterwards.
	procs := runtime.GOMAXPROCS(0)
	for _, workers := range []string{"3", "1"} {
		out.Reset()
		require.Equal(t, 0, run([]string{"solve", "tripeaks", "--deals", "1-20", "--workers", workers}, &out, &errb), errb.String())
		require.Contains(t, out.String(), "undecided 0 (")
		require.Equal(t, procs, runtime.GOMAXPROCS(0))
	}

	// Klondike searches each deal on several threads when asked, with the
	// budget of one thread times their number unless --nodes says.
	out.Reset()
	require.Equal(t, 0, run([]string{"solve", "klondike", "--draw", "3", "--deals", "1-6", "--workers", "1", "--threads", "2"}, &out, &errb), errb.String())
	require.Contains(t, out.String(), fmt.Sprintf("deals 1-6 (6), budget %d positions, 1 workers of 2 threads each", 2*klondikeNodes(t)))
	require.Regexp(t, `solved \d+ \(`, out.String())
	for _, bad := range [][]string{{"solve", "freecell", "--threads", "2"}, {"solve", "klondike", "--threads", "0"}} {
		errb.Reset()
		require.Equal(t, 2, run(bad, &out, &errb), "%v", bad)
		require.Contains(t, errb.String(), "--threads")
	}
	// A budget too small to decide anything: every deal is listed as undecided.
	out.Reset()
	require.Equal(t, 0, run([]string{"solve", "spider", "--suits", "4", "--deals", "1-3", "--nodes", "50"}, &out, &errb), errb.String())
	require.Contains(t, out.String(), "undecided deals: [1 2 3]\n")
	require.Equal(t, 2, run([]string{"solve", "chess"}, &out, &errb))
	require.Equal(t, 2, run([]string{"solve", "klondike", "--deals", "9-1"}, &out, &errb))
	// A variant the game does not have is refused, not reported lost.
	for _, bad := range [][]string{{"solve", "spider", "--suits", "3"}, {"solve", "klondike", "--draw", "2"}} {
		out.Reset()
		errb.Reset()
		require.Equal(t, 2, run(bad, &out, &errb), "%v", bad)
		require.NotContains(t, out.String(), "impossible")
		require.NotEmpty(t, errb.String())
	}
}

func klondikeNodes(t *testing.T) int {
	g, ok := games.Default().Game("klondike")
	require.True(t, ok)
	return g.Nodes
}
