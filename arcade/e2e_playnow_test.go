package arcade

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/internal/sshtest"
)

// Two people ask to play Spite now, one by command and one by the key in
// the table lobby: the pool seats them together at a table it opened, and
// both screens go to it, dealt.
func TestEndToEndPlayNowSeatsTwoPeople(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}

	ts.connect(t, alice, "play spite")
	s := alice.tm.WaitFor("In the pool: 1 for this table")
	require.Contains(t, s, "Play now")
	require.Contains(t, s, "Spite and Malice")
	require.Contains(t, s, "Looking for a player rated near you: 1500?")
	require.Contains(t, s, "Waiting 0:00.")

	ts.connect(t, bob, "")
	bob.tm.WaitFor("Playing as bob")
	bob.tm.Send("9") // Spite and Malice: its lobby
	bob.tm.WaitFor("play now")
	bob.tm.Send("f")

	for _, p := range []*player{alice, bob} {
		s := p.tm.WaitFor(p.name + " (you)")
		require.NotContains(t, s, "Play now")
	}
	require.Contains(t, alice.tm.WaitFor("bob"), "Spite and Malice")
	bob.tm.WaitFor("alice")
	// One table, in play, with the two of them.
	// The lobby's list is rebuilt a moment after a change.
	require.Eventually(t, func() bool { return len(ts.srv.hub.Tables()) == 1 }, 10*time.Second, 10*time.Millisecond)
	tables := ts.srv.hub.Tables()
	require.Equal(t, "spite", tables[0].Game)
	require.Equal(t, "alice", tables[0].Seats[0].Person.Name)
	require.Equal(t, "bob", tables[0].Seats[1].Person.Name)
}

// A lone player waits, sees the wait tick, is offered the computer player
// nearest their rating once the server's wait is over, and plays it; esc
// before that leaves the pool at once.
func TestEndToEndPlayNowOffersAComputer(t *testing.T) {
	ts := startServerWith(t, Config{PlayNowWait: 1500 * time.Millisecond, TablePace: 50 * time.Millisecond,
		HubRand: engine.NewRNG(1), InviteHost: "127.0.0.1"})
	carol := &player{name: "carol", key: sshtest.NewClientKey(t)}
	carol.c = sshtest.Dial(t, ts.addr, carol.name, carol.key)
	t.Cleanup(func() { _ = carol.c.Close() })
	carol.tm = sshtest.OpenTermSize(t, carol.c, map[string]string{"LANG": "en_US.UTF-8"}, "play kings --players 3", 80, 24)
	s := carol.tm.WaitFor("In the pool: 1 for this table")
	require.Contains(t, s, "Kings in the Corner for 3")
	require.NotContains(t, s, "Nobody near yet")

	// esc leaves the pool: the menu shows, and nobody waits any more.
	carol.tm.Send("\x1b")
	carol.tm.WaitFor("Playing as carol")
	require.Eventually(t, func() bool { return ts.srv.hub.PoolWaiting() == 0 }, 10*time.Second, 10*time.Millisecond)

	carol.tm.Send("9") // back in through the Spite and Malice lobby
	carol.tm.WaitFor("play now")
	carol.tm.Send("f")
	carol.tm.WaitFor("Waiting 0:01.")
	s = carol.tm.WaitFor("Nobody near yet. Play the computer player normal (rated 1500) now?")
	require.Contains(t, s, "y plays it, n keeps waiting for a person.")
	carol.tm.Send("y")
	s = carol.tm.WaitFor("carol (you)")
	require.True(t, strings.Contains(s, "(normal)") || strings.Contains(s, "normal"), "the computer's seat:\n%s", s)
	require.Eventually(t, func() bool { return len(ts.srv.hub.Tables()) == 1 }, 10*time.Second, 10*time.Millisecond)
	tables := ts.srv.hub.Tables()
	require.Equal(t, "carol", tables[0].Seats[0].Person.Name)
	require.Equal(t, "normal", tables[0].Seats[1].Computer)
}
