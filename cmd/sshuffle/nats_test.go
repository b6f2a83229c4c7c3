package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/natstest"
	"sshuffle/internal/sshtest"
)

// Two nodes on one NATS store and one host key: a player who signs in on
// one is known on the other, which shows the client the same host key.
func TestServeTwoNodesOnNATS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	c := natstest.Single(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "keys", "host_ed25519")
	node := func(name string) (*server, string) {
		addr := freePort(t)
		s := startBinaryArgs(t, bin, "serve", "--addr", addr, "--data", filepath.Join(dir, name),
			"--store", c.URL(), "--node", name, "--host-key", keyFile, "--fill-pools=false")
		return s, addr
	}
	one, addr1 := node("one")
	two, addr2 := node("two")
	require.Contains(t, one.log(), "store=\"nats nats://")
	_, err := os.Stat(filepath.Join(dir, "one", "host_ed25519"))
	require.ErrorIs(t, err, os.ErrNotExist, "the shared key is used, none made in --data")

	key := sshtest.NewClientKey(t)
	c1 := sshtest.Dial(t, addr1, "erin", key)
	tm := sshtest.OpenTerm(t, c1, nil)
	tm.WaitFor("Playing as erin")
	c1.Close()

	c2 := sshtest.Dial(t, addr2, "erin", key)
	defer c2.Close()
	tm2 := sshtest.OpenTerm(t, c2, nil)
	tm2.WaitFor("Welcome back, erin")
	fp := regexp.MustCompile(`fingerprint=(SHA256:\S+)`)
	m1, m2 := fp.FindStringSubmatch(one.log()), fp.FindStringSubmatch(two.log())
	require.NotNil(t, m1)
	require.NotNil(t, m2)
	require.Equal(t, m1[1], m2[1], "one host key on both nodes")
}
