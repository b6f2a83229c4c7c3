package main

import (
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"sshuffle/internal/natstest"
	"sshuffle/internal/sshtest"
	natsstore "sshuffle/store/nats"
)

var tableStall = flag.Bool("tablestall", false,
	"run TestTableMovesThroughLeaderStall: two people at a table across two nodes while a NATS leader is killed")

// TestTableMovesThroughLeaderStall measures what a NATS server's death
// does to two people playing a table across nodes, end to end: three
// nats-server processes, two sshuffle processes on them, ann on node1
// opening a Kings table of two, bob on node2 seated at it. They end their
// turns in turn; each move is timed from the key until the other screen
// shows the turn passed (a player told the server does not answer presses
// again, as the sentence asks). A few seconds in, the server leading the stream
// of the tables' snapshots (the write each action waits for on a node of
// several) is killed with SIGKILL, just before a move. Afterwards every
// move the other screen showed must be in the stored game, and no table
// may have changed node. Not part of the normal run (-tablestall);
// scripts/cluster-bench.sh (STALL=1) runs it and reports/cluster.md keeps
// a run:
//
//	go test ./cmd/sshuffle -run TestTableMovesThroughLeaderStall -tablestall -v
func TestTableMovesThroughLeaderStall(t *testing.T) {
	if !*tableStall {
		t.Skip("-tablestall runs it")
	}
	const (
		before = 4 * time.Second  // of moves before the kill
		after  = 16 * time.Second // of moves after it
		pace   = 300 * time.Millisecond
	)
	procs := natstest.StartProcesses(t, "tablestall")
	bin := buildBinary(t)
	dir := t.TempDir()
	key := filepath.Join(dir, "host_ed25519")
	var nodes []*clusterNode
	for i, name := range []string{"node1", "node2"} {
		addr := freePort(t)
		// Each node names its own server first, so they spread.
		args := []string{"serve", "--addr", addr, "--data", filepath.Join(dir, name), "--store",
			procs.URLs[i] + "," + procs.URL(), "--node", name, "--host-key", key, "--fill-pools=false"}
		nodes = append(nodes, &clusterNode{server: startBinaryArgs(t, bin, args...), addr: addr, args: args})
	}

	ann := &seat{name: "ann", key: sshtest.NewClientKey(t)}
	bob := &seat{name: "bob", key: sshtest.NewClientKey(t)}
	ann.connect(t, nodes[0], "table kings person")
	m := joinCodeRE.FindStringSubmatch(ann.tm.WaitFor("Invite: "))
	require.NotNil(t, m, "no invite line:\n%s", ann.tm.Screen())
	code := m[1]
	bob.connect(t, nodes[1], "join "+code)
	bob.tm.WaitFor("You sit in seat 2")
	ann.tm.WaitFor("2 bob")
	ann.tm.Send("s")
	for _, p := range []*seat{ann, bob} {
		p.tm.WaitFor(p.name + " (you)")
	}

	nc, err := nats.Connect(procs.URL())
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	leaderOf := func(stream string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		st, err := js.Stream(ctx, stream)
		require.NoError(t, err)
		info, err := st.Info(ctx)
		require.NoError(t, err)
		return info.Cluster.Leader
	}

	top := func(p *seat) string { l, _, _ := strings.Cut(p.tm.Screen(), "\n"); return l }
	over := func() bool { return strings.Contains(ann.tm.Screen(), "went out") }
	type move struct {
		by        string
		at, took  time.Duration
		shown     bool
		afterKill bool
		retries   int // the player pressed again, told the server did not answer
	}
	var moves []move
	begin := time.Now()
	killedAt := time.Duration(-1)
	for time.Since(begin) < before+after && !over() {
		var mover, other *seat
		deadline := time.Now().Add(60 * time.Second)
		for mover == nil {
			require.True(t, time.Now().Before(deadline), "nobody's turn; ann sees:\n%s", ann.tm.Screen())
			switch {
			case strings.Contains(top(ann), "your turn"):
				mover, other = ann, bob
			case strings.Contains(top(bob), "your turn"):
				mover, other = bob, ann
			}
			if over() {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		if mover == nil {
			break
		}
		theirs := mover.name + "'s turn"
		waitLong(t, other.tm, 60*time.Second, theirs, func(string) bool { return strings.Contains(top(other), theirs) })
		time.Sleep(pace)
		if killedAt < 0 && time.Since(begin) >= before {
			saves, rooms, records := leaderOf("KV_sshuffle_saves"), leaderOf("KV_sshuffle_rooms"), leaderOf("KV_sshuffle_records")
			require.NoError(t, procs.Kill(saves))
			killedAt = time.Since(begin)
			t.Logf("leaders: snapshots (saves) %s, rooms %s, records %s; killed %s with SIGKILL at %s, just before %s's move",
				saves, rooms, records, saves, killedAt.Round(time.Millisecond), mover.name)
		}
		sent := time.Now()
		mover.tm.Send("e")
		mv := move{by: mover.name, at: sent.Sub(begin), afterKill: killedAt >= 0}
		last := sent
		for {
			if !strings.Contains(top(other), theirs) {
				mv.took, mv.shown = time.Since(sent), true
				break
			}
			if time.Since(sent) > 60*time.Second {
				mv.took = time.Since(sent)
				break
			}
			// Told the table's server does not answer (the request went
			// down with the killed server), the player tries again, as
			// the sentence asks.
			if strings.Contains(mover.tm.Screen(), "does not answer") && time.Since(last) > 2*time.Second {
				mover.tm.Send("e")
				last = time.Now()
				mv.retries++
			}
			time.Sleep(time.Millisecond)
		}
		moves = append(moves, mv)
		require.True(t, mv.shown, "%s's move at %s never reached %s's screen:\n%s", mv.by, mv.at, other.name, other.tm.Screen())
		waitLong(t, mover.tm, 60*time.Second, "the turn passed", func(string) bool { return !strings.Contains(top(mover), "your turn") })
	}
	require.GreaterOrEqual(t, killedAt, time.Duration(0), "the hand ended before the kill")

	var pre, post []time.Duration
	for _, mv := range moves {
		if mv.afterKill {
			post = append(post, mv.took)
		} else {
			pre = append(pre, mv.took)
		}
	}
	for i, mv := range moves {
		if mv.afterKill && (i == 0 || !moves[i-1].afterKill) || mv.took > time.Second {
			t.Logf("%s's move at %s reached the other screen after %s (pressed again %d times)", mv.by,
				mv.at.Round(time.Millisecond), mv.took.Round(time.Millisecond), mv.retries)
		}
	}
	q := func(xs []time.Duration, f float64) time.Duration {
		xs = slices.Clone(xs)
		slices.Sort(xs)
		if len(xs) == 0 {
			return 0
		}
		return xs[int(f*float64(len(xs)-1))].Round(time.Millisecond)
	}
	t.Logf("moves before the kill: %d, p50 %s, p90 %s, max %s", len(pre), q(pre, .5), q(pre, .9), q(pre, 1))
	t.Logf("moves from the kill:   %d, p50 %s, p90 %s, max %s", len(post), q(post, .5), q(post, .9), q(post, 1))
	slow := 0
	for _, d := range post {
		if d > time.Second {
			slow++
		}
	}
	t.Logf("moves that waited over a second: %d", slow)

	// Every move shown on the other screen is in the stored game: the
	// table's snapshot while the hand goes on, its record once it is over.
	st, err := natsstore.Open(t.Context(), procs.URL(), natsstore.Options{Node: "reader"})
	require.NoError(t, err)
	defer func() { _ = st.Close() }()
	ends := func(acts []json.RawMessage) int {
		n := 0
		for _, a := range acts {
			var w struct {
				Do string `json:"do"`
			}
			if json.Unmarshal(a, &w) == nil && w.Do == "end" {
				n++
			}
		}
		return n
	}
	stored := -1
	for deadline := time.Now().Add(20 * time.Second); stored < len(moves) && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if acts, _ := snapshotOf(t, st, code); acts != nil {
			stored = ends(acts)
		} else if acts := recordedActions(t, st, accountID(t, st, "ann"), code); acts != nil {
			stored = ends(acts)
		}
	}
	t.Logf("moves shown on the other screen: %d; ends of turn in the stored game: %d; lost: %d",
		len(moves), stored, max(len(moves)-stored, 0))
	require.Equal(t, len(moves), stored, "every move shown is stored, once")
	for _, n := range nodes {
		require.NotContains(t, n.log(), "table taken over", "no table changed node")
		require.NotContains(t, n.log(), "room lease lost")
		// What the node saw of the stall, for the report.
		for _, l := range strings.Split(n.log(), "\n") {
			if strings.Contains(l, "level=WARN") || strings.Contains(l, "level=ERROR") {
				t.Logf("%s: %s", n.args[8], l)
			}
		}
	}
}
