package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
	"sshuffle/internal/sshtest"
	natsstore "sshuffle/store/nats"
)

// testLease is the nodes' room lease in these tests: short, so that a
// table is taken over within seconds of its node's death.
const testLease = "3s"

// clusterNode is one sshuffle process of a test cluster.
type clusterNode struct {
	*server
	addr string
	args []string // serve's, to start it again
}

// startCluster starts one sshuffle process per name on the NATS cluster c,
// with one host key, each on its own NATS server when there are as many.
func startCluster(t *testing.T, c *natstest.Cluster, names ...string) []*clusterNode {
	t.Helper()
	bin := buildBinary(t)
	dir := t.TempDir()
	key := filepath.Join(dir, "host_ed25519")
	var nodes []*clusterNode
	for i, name := range names {
		// Each node names its own server first: nats.go shuffles the list
		// otherwise, and the nodes would not spread over the cluster.
		url := c.Servers[i%len(c.Servers)].ClientURL() + "," + c.URL()
		addr := freePort(t)
		args := []string{"serve", "--addr", addr, "--data", filepath.Join(dir, name), "--store", url,
			"--node", name, "--host-key", key, "--fill-pools=false", "--room-lease", testLease}
		s := startBinaryArgs(t, bin, args...)
		require.Contains(t, s.log(), "msg=\"rooms across nodes\"")
		nodes = append(nodes, &clusterNode{server: s, addr: addr, args: args})
	}
	return nodes
}

// seat is one person's SSH connection and 80x24 screen.
type seat struct {
	name string
	key  gossh.Signer
	c    *gossh.Client
	tm   *sshtest.Term
}

func (p *seat) connect(t *testing.T, n *clusterNode, cmd string) {
	t.Helper()
	p.c = sshtest.Dial(t, n.addr, p.name, p.key)
	t.Cleanup(func() { _ = p.c.Close() })
	p.tm = sshtest.OpenTermSize(t, p.c, map[string]string{"LANG": "en_US.UTF-8"}, cmd, 80, 24)
}

// waitLong waits up to d for a screen that ok accepts: a takeover takes
// the lease and a watchdog's round, longer than a screen's usual wait.
func waitLong(t *testing.T, tm *sshtest.Term, d time.Duration, what string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if s := tm.Screen(); ok(s) {
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("screen never showed %s; it shows:\n%s", what, tm.Screen())
	return ""
}

// endTurns lets each of the people end one turn, in the table's order
// (the computer plays its own at its pace): each end is acknowledged on
// every screen, by a line of the table's log.
func endTurns(t *testing.T, people ...*seat) {
	t.Helper()
	done := map[string]bool{}
	deadline := time.Now().Add(60 * time.Second)
	for len(done) < len(people) {
		require.True(t, time.Now().Before(deadline), "the people never all had their turn; %s sees:\n%s", people[0].name, people[0].tm.Screen())
		for _, p := range people {
			if done[p.name] || !strings.Contains(p.tm.Screen(), "your turn") {
				continue
			}
			p.tm.Send("e")
			for _, q := range people {
				q.tm.WaitFor(p.name + " ended the turn")
			}
			done[p.name] = true
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// accountID is the account of a player's name in the shared store.
func accountID(t *testing.T, st *natsstore.Store, name string) string {
	t.Helper()
	a, err := st.AccountByName(t.Context(), name)
	require.NoError(t, err)
	return a.ID
}

// recordedActions are the actions of the table's first game as recorded on
// the account, or nil while it is not recorded.
func recordedActions(t *testing.T, st *natsstore.Store, account, code string) []json.RawMessage {
	t.Helper()
	gs, err := st.TableGames(t.Context(), account, 10)
	require.NoError(t, err)
	for _, g := range gs {
		if g.Code != code {
			continue
		}
		var rec struct {
			Actions []json.RawMessage `json:"actions"`
		}
		require.NoError(t, json.Unmarshal(g.Record, &rec))
		return rec.Actions
	}
	return nil
}

var joinCodeRE = regexp.MustCompile(`join ([A-Z0-9]{5})`)

// snapshotOf reads a table's snapshot from the shared store: its actions
// so far and its log.
func snapshotOf(t *testing.T, st *natsstore.Store, code string) ([]json.RawMessage, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	saved, err := st.SavedTables(ctx)
	require.NoError(t, err)
	data, ok := saved[code]
	if !ok {
		return nil, nil
	}
	var snap hub.TableSnapshot
	require.NoError(t, json.Unmarshal(data, &snap))
	var rec struct {
		Actions []json.RawMessage `json:"actions"`
	}
	require.NoError(t, json.Unmarshal(snap.Record, &rec))
	return rec.Actions, snap.Log
}

// TestTableSurvivesSIGKILLOfItsNode: three sshuffle processes on a
// three-server NATS cluster. Ann opens a Kings table on node1 with a
// computer, bob sits from node2, and each ends a turn; both see it. Node1
// is killed with SIGKILL mid-table. Node2 or node3 takes the table over
// from the shared store and restores it paused; bob's screen follows it,
// and ann, coming back through node3, finds her seat. Every action the
// screens acknowledged is in the table that plays on.
func TestTableSurvivesSIGKILLOfItsNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary on a NATS cluster")
	}
	c := natstest.Three(t)
	nodes := startCluster(t, c, "node1", "node2", "node3")
	ann := &seat{name: "ann", key: sshtest.NewClientKey(t)}
	bob := &seat{name: "bob", key: sshtest.NewClientKey(t)}

	ann.connect(t, nodes[0], "table kings person easy")
	m := joinCodeRE.FindStringSubmatch(ann.tm.WaitFor("Invite: "))
	require.NotNil(t, m, "no invite line:\n%s", ann.tm.Screen())
	code := m[1]
	bob.connect(t, nodes[1], "join "+code)
	bob.tm.WaitFor("You sit in seat 2")
	ann.tm.WaitFunc("bob seated", func(s string) bool {
		return regexp.MustCompile(`Seats: 1 ann, 2 bob, 3 \w+ \(easy\)`).MatchString(s)
	})
	ann.tm.Send("s")
	for _, p := range []*seat{ann, bob} {
		p.tm.WaitFor(p.name + " (you)")
	}

	// Each person ends a turn when it comes; the computer plays its own at
	// its pace. A line in the log on the other's screen is an action the
	// table acknowledged (on a node of several, only once it is stored).
	endTurns(t, ann, bob)

	st, err := natsstore.Open(t.Context(), c.URL(), natsstore.Options{Node: "reader"})
	require.NoError(t, err)
	defer func() { _ = st.Close() }()
	before, _ := snapshotOf(t, st, code)
	require.GreaterOrEqual(t, len(before), 2, "both ends of turn are stored")

	require.NoError(t, nodes[0].cmd.Process.Signal(syscall.SIGKILL))
	<-nodes[0].done

	// Bob's node notices the lapsed lease and the table comes back paused,
	// waiting for ann, whose node died.
	waitLong(t, bob.tm, 40*time.Second, "the table paused for ann", func(s string) bool {
		return strings.Contains(s, "Paused until ann is back")
	})
	ann.connect(t, nodes[2], "join "+code)
	waitLong(t, ann.tm, 20*time.Second, "ann back in her seat", func(s string) bool { return strings.Contains(s, "ann (you)") })
	waitLong(t, bob.tm, 20*time.Second, "the pause over", func(s string) bool {
		return !strings.Contains(s, "Paused") && strings.Contains(s, "bob (you)")
	})

	// The table plays on from where it was: the people end their turns as
	// they come, and the game as stored (the snapshot, or the record once
	// the hand is over: a computer may go out in a few turns) goes on
	// from every action acknowledged before the kill.
	annID := accountID(t, st, "ann")
	var after []json.RawMessage
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the table never went on after the takeover; ann sees:\n%s", ann.tm.Screen())
		for _, p := range []*seat{ann, bob} {
			if strings.Contains(p.tm.Screen(), "your turn") {
				p.tm.Send("e")
			}
		}
		if acts, _ := snapshotOf(t, st, code); len(acts) >= len(before)+2 {
			after = acts
			break
		}
		if acts := recordedActions(t, st, annID, code); acts != nil {
			after = acts
			break
		}
	}
	require.Greater(t, len(after), len(before))
	require.Equal(t, before, after[:len(before)], "the game went on from where it was stored")

	// Node1 comes back under its name: the table's snapshot is in the
	// store, but another node holds the table now, so node1 leaves it be
	// (unless the hand ended meanwhile and there is no snapshot).
	held, _ := snapshotOf(t, st, code)
	again := startBinaryArgs(t, buildBinary(t), nodes[0].args...)
	require.NotContains(t, again.log(), "tables restored")
	if still, _ := snapshotOf(t, st, code); held != nil && still != nil {
		require.Contains(t, again.log(), "table not restored here")
	}

	took := 0
	for _, n := range nodes[1:] {
		took += strings.Count(n.log(), "table taken over from a node that stopped")
	}
	require.Equal(t, 1, took, "one surviving node took the table over")
}

// TestRaceAcrossThreeNodeProcesses: a race opened on node1, with a racer
// on each of three sshuffle processes sharing a three-server NATS cluster:
// all three see the others join, the countdown and each other's moves.
func TestRaceAcrossThreeNodeProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary on a NATS cluster")
	}
	c := natstest.Three(t)
	nodes := startCluster(t, c, "node1", "node2", "node3")
	var racers []*seat
	for _, name := range []string{"alice", "bob", "carol"} {
		racers = append(racers, &seat{name: name, key: sshtest.NewClientKey(t)})
	}
	alice, bob, carol := racers[0], racers[1], racers[2]
	alice.connect(t, nodes[0], "race klondike/draw1/11")
	m := joinCodeRE.FindStringSubmatch(alice.tm.WaitFor("Invite: "))
	require.NotNil(t, m, "no invite line:\n%s", alice.tm.Screen())
	bob.connect(t, nodes[1], "join "+m[1])
	carol.connect(t, nodes[2], "join "+m[1])
	for _, p := range racers {
		p.tm.WaitFor("Racers (3/8)")
	}
	s := bob.tm.WaitFor("carol")
	require.Contains(t, s, "alice")

	alice.tm.Send("s")
	for _, p := range racers {
		p.tm.WaitFor("Moves 0 ")
	}
	// Each sees the others move: bob turns a card, carol two.
	bob.tm.Send("d")
	bob.tm.WaitFor("Moves 1 ")
	alice.tm.WaitFor("0/52 1m")
	carol.tm.WaitFor("0/52 1m")
	carol.tm.Send("dd")
	carol.tm.WaitFor("Moves 2 ")
	alice.tm.WaitFor("0/52 2m")
	bob.tm.WaitFor("0/52 2m")
}
