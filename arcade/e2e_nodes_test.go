package arcade

import (
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/arcade/hub/natsrelay"
	"sshuffle/arcade/save"
	"sshuffle/engine"
	"sshuffle/hostkeys"
	"sshuffle/internal/natstest"
	"sshuffle/internal/sshtest"
	"sshuffle/store/badger"
)

// nodeServer is one node of a cluster in one test: an SSH server with its
// rooms' relay on a NATS server the test started, sharing one store
// handle with the other nodes (as nodes share the NATS store).
func nodeServer(t *testing.T, c *natstest.Cluster, name string, st *badger.Store, clk *hub.ManualClock) (*tableServer, *nats.Conn) {
	t.Helper()
	nc := c.Connect(0)
	relay, err := natsrelay.New(t.Context(), natsrelay.Config{Conn: nc, Node: name, Renew: 50 * time.Millisecond,
		Lease: 500 * time.Millisecond, Log: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	key, err := hostkeys.LoadOrCreate(t.TempDir())
	require.NoError(t, err)
	cfg := Config{HostKeyPEM: key.PEM, Logger: slog.New(slog.DiscardHandler), HubRand: engine.NewRNG(uint64(len(name))),
		InviteHost: "127.0.0.1", TableClock: tableClock, TablePace: tablePace, TableHold: 3 * time.Minute,
		TableBreak: time.Second, Relay: relay}
	if clk != nil {
		cfg.HubClock = clk
	}
	srv, err := New(cfg, st)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(l) }()
	stop := func() {
		_ = srv.Shutdown(t.Context())
		relay.Close()
	}
	t.Cleanup(stop)
	return &tableServer{testServer: &testServer{addr: l.Addr().String(), srv: srv, store: st}, clk: clk, stop: stop}, nc
}

// Kings in the Corner over SSH with its people on two nodes: alice opens
// the table on node a, bob joins it by code on node b, a computer sits at
// the third seat. Both screens follow the same game, bob's keys reach the
// table on node a, and the hand is recorded once, on both people's
// accounts, by node a.
func TestEndToEndKingsAcrossTwoNodes(t *testing.T) {
	c := natstest.Single(t)
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	clk := hub.NewManualClock()
	na, _ := nodeServer(t, c, "a", st, clk)
	nb, _ := nodeServer(t, c, "b", st, nil)

	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	na.connect(t, alice, "table kings person easy")
	m := tableCodeRE.FindStringSubmatch(alice.tm.WaitFor("Invite: "))
	require.NotNil(t, m)
	code := m[1]
	nb.connect(t, bob, "join "+code)
	bob.tm.WaitFor("You sit in seat 2")
	alice.tm.WaitFor("Seats: 1 alice, 2 bob")

	alice.tm.Send("s")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor("Kings in the Corner")
		p.tm.WaitFor(p.name + " (you)")
	}
	// Each person ends a turn by key, the computer plays at its pace on
	// node a's clock, until bob (on node b) has ended one.
	for done := false; !done; {
		s := alice.tm.WaitFunc("whose turn", func(s string) bool { return strings.Contains(s, "'s turn") || strings.Contains(s, "your turn") })
		switch {
		case strings.Contains(s, "your turn"):
			alice.tm.Send("e")
			alice.tm.WaitFunc("alice's turn over", func(s string) bool { return !strings.Contains(s, "your turn") })
		case strings.Contains(s, "bob's turn"):
			bob.tm.WaitFor("your turn")
			bob.tm.Send("e")
			done = true
		default:
			before := body(s)
			clk.Advance(tablePace)
			alice.tm.WaitFunc("the computer's action", func(s string) bool { return body(s) != before })
		}
	}
	alice.tm.WaitFor("bob ended the turn")
	bob.tm.WaitFor("bob ended the turn")

	// The turn clocks run out from here on, and the computer plays for
	// whoever's turn it is: the hand ends, on node a.
	aliceID, bobID := bobID(t, na.testServer, "alice"), bobID(t, na.testServer, "bob")
	runUntil(t, clk, "the hand stored", func() bool { return len(recorded(t, na, bobID, code)) == 1 })
	for _, p := range []*player{alice, bob} {
		s := p.tm.WaitFunc("the hand's outcome", func(s string) bool {
			return strings.Contains(s, "went out.") || strings.Contains(s, "Nobody went out.")
		})
		require.Regexp(t, `Penalty points: alice \d+, bob \d+, `, strings.Join(strings.Fields(s), " "))
	}
	gs := recorded(t, na, aliceID, code)
	require.Len(t, gs, 1, "the hand is stored once")
	require.Equal(t, "bob", gs[0].Seats[1].Name)
	require.Equal(t, "easy", gs[0].Seats[2].Strength)
	replays(t, gs)
}

// A race on node a with bob racing from node b; node a dies mid-race.
// Bob's game goes on, as an ordinary game of his: his screen becomes the
// game's own, continuing from where he was, from the save it was handed.
func TestEndToEndRaceWhoseNodeDies(t *testing.T) {
	c := natstest.Single(t)
	st, err := badger.OpenInMemory()
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	clk := hub.NewManualClock()
	na, ncA := nodeServer(t, c, "a", st, clk)
	nb, _ := nodeServer(t, c, "b", st, nil)
	spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: 7}

	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	na.connect(t, alice, "race "+spec.String())
	code := codeOn(t, alice.tm.WaitFor("Invite: "))
	nb.connect(t, bob, "join "+code)
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor("Racers (2/8)")
	}
	alice.tm.Send("s")
	for n := 3; n >= 1; n-- {
		for _, p := range []*player{alice, bob} {
			p.tm.WaitFor(fmt.Sprintf("Starting in %d", n))
		}
		clk.Advance(time.Second)
	}
	bob.tm.WaitFor("Moves 0 ")
	bob.tm.Send("d")
	bob.tm.WaitFor("Moves 1 ")
	alice.tm.WaitFor("0/52 1m")

	ncA.Close() // node a is cut off from everything: as far as node b can tell, it died
	s := bob.tm.WaitFunc("bob's own game, out of the race", func(s string) bool {
		return !strings.Contains(s, "Race "+code) && strings.Contains(s, "Moves 1")
	})
	require.NotContains(t, s, "Press any key for the menu")
	bobID := bobID(t, nb.testServer, "bob")
	key := engine.Spec{Game: "klondike", Variant: "draw1"}.Key()
	data, err := st.GetSave(t.Context(), bobID, key)
	require.NoError(t, err, "bob's game is handed over as his saved game")
	got, err := save.Spec(data)
	require.NoError(t, err)
	require.Equal(t, spec, got)
	bob.tm.Send("d")
	bob.tm.WaitFor("Moves 2")
}
