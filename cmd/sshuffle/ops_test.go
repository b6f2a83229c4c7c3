package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/internal/sshtest"
	store "sshuffle/store/badger"
)

// A backup taken from a running server (a second process: the
// store is locked by the server), restored into a new directory, holds
// every account and result.
func TestBackupOfARunningServerRestores(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sshuffle")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	data := filepath.Join(dir, "data")
	addr := freePort(t)
	maddr := freePort(t)
	srv := startBinaryArgs(t, bin, "serve", "--addr", addr, "--data", data, "--metrics-addr", maddr)

	// Three players each abandon a game with one move: a result each.
	ids := map[string]string{}
	for i := range 3 {
		key := sshtest.NewClientKey(t)
		name := fmt.Sprintf("backer%d", i)
		ids[gossh.FingerprintSHA256(key.PublicKey())] = name
		c := sshtest.Dial(t, addr, name, key)
		tm := sshtest.OpenTerm(t, c, nil)
		tm.WaitFor("Playing as " + name)
		tm.Send("\r")
		tm.WaitFor("Moves 0")
		tm.Send("d")
		tm.WaitFor("Moves 1")
		tm.Send("n")
		tm.WaitFor("Press n again")
		tm.Send("n")
		tm.WaitFor("Moves 0")
		tm.Send("q")
		tm.WaitFor("Playing as " + name)
		tm.Send("q") // the menu asks once before quitting
		tm.WaitFor("q again to quit")
		tm.Send("q")
		tm.WaitExit()
		c.Close()
	}

	backupFile := filepath.Join(dir, "backup.bin")
	out, err := os.Create(backupFile)
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "backup", "--data", data)
	cmd.Stdout, cmd.Stderr = out, &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	require.NoError(t, out.Close())
	require.Contains(t, stderr.String(), "from the running server")

	// Metrics and health beside them, while it runs.
	resp, err := http.Get("http://" + maddr + "/healthz")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp.Body.Close()
	resp, err = http.Get("http://" + maddr + "/metrics")
	require.NoError(t, err)
	var metrics bytes.Buffer
	_, _ = metrics.ReadFrom(resp.Body)
	resp.Body.Close()
	for _, family := range []string{"sshuffle_sessions", "sshuffle_session_starts_total", "sshuffle_key_to_frame_seconds",
		"sshuffle_store_write_seconds", "sshuffle_games_finished_total", "sshuffle_search_queue"} {
		require.Contains(t, metrics.String(), family)
	}
	_ = srv

	restored := filepath.Join(dir, "restored")
	in, err := os.Open(backupFile)
	require.NoError(t, err)
	defer in.Close()
	cmd = exec.Command(bin, "restore", "--data", restored)
	stderr.Reset()
	cmd.Stdin, cmd.Stderr = in, &stderr
	require.NoError(t, cmd.Run(), stderr.String())

	st, err := store.Open(filepath.Join(restored, "store"), nil)
	require.NoError(t, err)
	defer st.Close()
	for id, name := range ids {
		a, err := st.Account(context.Background(), id)
		require.NoError(t, err, name)
		require.Equal(t, name, a.Name)
		rs, err := st.Results(context.Background(), id, 10)
		require.NoError(t, err)
		require.Len(t, rs, 1, name)
		require.Equal(t, 1, rs[0].Moves)
	}

	// Restoring over a store is refused, and says why.
	in2, err := os.Open(backupFile)
	require.NoError(t, err)
	defer in2.Close()
	cmd = exec.Command(bin, "restore", "--data", restored)
	stderr.Reset()
	cmd.Stdin, cmd.Stderr = in2, &stderr
	require.Error(t, cmd.Run())
	require.Contains(t, stderr.String(), "not empty")
}

// A data directory whose store lost its MANIFEST stops the
// server with exit code 3 and a sentence, before Badger empties it.
func TestDamagedStoreStopsTheStart(t *testing.T) {
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "store"), nil)
	require.NoError(t, err)
	_, err = st.CreateAccount(context.Background(), "SHA256:x", "xavier")
	require.NoError(t, err)
	require.NoError(t, st.Close())
	require.NoError(t, os.Remove(filepath.Join(data, "store", "MANIFEST")))
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"serve", "--addr", "127.0.0.1:0", "--data", data}, &out, &errb) }()
	select {
	case code := <-done:
		require.Equal(t, exitStoreRefused, code)
	case <-time.After(20 * time.Second):
		t.Fatal("the server started on a damaged store")
	}
	require.Contains(t, errb.String(), "no MANIFEST")
	require.True(t, strings.Contains(errb.String(), "level=ERROR"))
}
