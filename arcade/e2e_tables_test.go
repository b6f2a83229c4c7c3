package arcade

import (
	"encoding/json"
	"log/slog"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/arcade/command"
	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
	"sshuffle/hostkeys"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
	"sshuffle/store/badger"
)

// The tables over real SSH: the hub's clock is a ManualClock the test
// advances a step at a time, so the computers' pace and the turn clock pass
// only when the test says; nothing waits on the wall clock but the screens.

const (
	tablePace  = time.Second
	tableClock = 5 * time.Second
)

var tableCodeRE = regexp.MustCompile(`join ([A-Z0-9]{5})`)

// tableServer is a server on a store directory of the test's, so that a
// second server can open the same store after a restart.
type tableServer struct {
	*testServer
	clk  *hub.ManualClock
	stop func()
}

func startTableServer(t *testing.T, dir string) *tableServer {
	t.Helper()
	key, err := hostkeys.LoadOrCreate(dir)
	require.NoError(t, err)
	st, err := badger.Open(filepath.Join(dir, "store"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	clk := hub.NewManualClock()
	// The hub's source is fixed: with a random deal the hard computer can,
	// now and then, go out in its first turn, before a person has played.
	srv, err := New(Config{HostKeyPEM: key.PEM, Logger: slog.New(slog.DiscardHandler), HubClock: clk, HubRand: engine.NewRNG(1),
		InviteHost: "127.0.0.1", TableClock: tableClock, TablePace: tablePace, TableHold: 3 * time.Minute,
		TableBreak: time.Second}, st)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(l) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		_ = srv.Shutdown(t.Context())
		_ = st.Close()
	}
	t.Cleanup(stop)
	return &tableServer{testServer: &testServer{addr: l.Addr().String(), srv: srv, store: st}, clk: clk, stop: stop}
}

// player is one person's connection and screen.
type player struct {
	name string
	key  gossh.Signer
	c    *gossh.Client
	tm   *sshtest.Term
}

func (ts *tableServer) connect(t *testing.T, p *player, cmd string) {
	t.Helper()
	p.c = sshtest.Dial(t, ts.addr, p.name, p.key)
	t.Cleanup(func() { _ = p.c.Close() })
	p.tm = sshtest.OpenTermSize(t, p.c, map[string]string{"LANG": "en_US.UTF-8"}, cmd, 80, 24)
}

// openTable: the host opens a table by command and reads its code off the
// invite line; the others join by code and everyone is seated.
func openTable(t *testing.T, ts *tableServer, cmd string, host *player, others ...*player) string {
	t.Helper()
	ts.connect(t, host, cmd)
	s := host.tm.WaitFor("Invite: ")
	m := tableCodeRE.FindStringSubmatch(s)
	require.NotNil(t, m, "no invite line:\n%s", s)
	code := m[1]
	_, port, _ := strings.Cut(ts.addr, ":")
	require.Contains(t, s, "ssh -t -p "+port+" 127.0.0.1 join "+code)
	for i, o := range others {
		ts.connect(t, o, "join "+code)
		o.tm.WaitFor("You sit in seat " + string(rune('2'+i)))
		require.Contains(t, o.tm.Screen(), "Waiting for "+host.name)
	}
	return code
}

// body is a table screen without its header (whose clock counts down on
// the wall clock).
func body(screen string) string {
	_, rest, _ := strings.Cut(screen, "\n")
	return rest
}

// runUntil advances the room clock a step at a time until done holds.
func runUntil(t *testing.T, clk *hub.ManualClock, what string, done func() bool) {
	t.Helper()
	for i := 0; i < 20000; i++ {
		if done() {
			return
		}
		clk.Advance(time.Second)
		time.Sleep(time.Millisecond)
	}
	require.True(t, done(), "never: %s", what)
}

// recorded is the table's games as the account's record keeps them.
func recorded(t *testing.T, ts *tableServer, id, code string) []store.TableGame {
	t.Helper()
	gs, err := ts.store.TableGames(t.Context(), id, 50)
	require.NoError(t, err)
	var out []store.TableGame
	for _, g := range gs {
		if g.Code == code {
			out = append(out, g)
		}
	}
	return out
}

// actionsOf reads the actions of a record, or of a snapshot's record.
func actionsOf(t *testing.T, data []byte, snapshot bool) []json.RawMessage {
	t.Helper()
	if len(data) == 0 {
		return nil
	}
	if snapshot {
		var snap hub.TableSnapshot
		require.NoError(t, json.Unmarshal(data, &snap))
		data = snap.Record
	}
	var rec struct {
		Actions []json.RawMessage `json:"actions"`
	}
	require.NoError(t, json.Unmarshal(data, &rec))
	return rec.Actions
}

// replays: every stored record replays through its package's Replay.
func replays(t *testing.T, gs []store.TableGame) {
	t.Helper()
	for _, g := range gs {
		switch g.Game {
		case kings.Name:
			require.NoError(t, kings.Replay(g.Record), "game %d of %s", g.GameNo, g.Code)
		case spite.Name:
			require.NoError(t, spite.Replay(g.Record), "game %d of %s", g.GameNo, g.Code)
		default:
			t.Fatalf("a stored game of %q", g.Game)
		}
	}
}

// Kings in the Corner, two people and a computer, over SSH, to the end of
// the hand: a person ends a turn by key, bob's connection drops (a computer
// stands in, alice sees him away), he rejoins by code and has his seat.
func TestEndToEndKingsWithADropAndRejoin(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	code := openTable(t, ts, "table kings person hard", alice, bob)
	// The hard computer in seat 3 has its name (engine.ComputerName) in
	// every place below, its strength beside it where there is room.
	const hopper = "Hopper"
	// Bob's seat reaches alice's screen through the room: wait for it.
	alice.tm.WaitFor("Seats: 1 alice, 2 bob, 3 " + hopper + " (hard)")

	// The lobby lists it, and so does the tables command.
	var list command.TableListing
	runJSON(t, alice.c, "tables --json", &list)
	require.Len(t, list.Tables, 1)
	require.Equal(t, code, list.Tables[0].Code)
	require.Equal(t, "kings", list.Tables[0].Game)
	require.Equal(t, []command.TableSeat{{Name: "alice"}, {Name: "bob"}, {Name: hopper, Computer: "hard"}}, list.Tables[0].Seats)
	out, _, status := run(t, alice.c, "tables")
	require.Equal(t, 0, status)
	require.Contains(t, out, code+"  kings")
	require.Contains(t, out, "seats: alice, bob, "+hopper+" (hard)")

	alice.tm.Send("s")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor("Kings in the Corner")
		p.tm.WaitFor(p.name + " (you)")
		p.tm.WaitFor(hopper + " (hard)") // its seat line
	}
	computerActed := regexp.MustCompile(hopper + ` (played|put|moved|drew|ended)`)

	// Each person ends their turns by key, the computer plays at its pace,
	// until alice has ended one: the log says so on both screens.
	for done := false; !done; {
		s := alice.tm.WaitFunc("whose turn", func(s string) bool { return strings.Contains(s, "'s turn") || strings.Contains(s, "your turn") })
		switch {
		case strings.Contains(s, "your turn"):
			alice.tm.Send("e")
			done = true
		case strings.Contains(s, "bob's turn"):
			bob.tm.WaitFor("your turn")
			bob.tm.Send("e")
			alice.tm.WaitFunc("bob's turn over", func(s string) bool { return !strings.Contains(s, "bob's turn") })
		default: // the computer's: one action a pace
			require.Contains(t, s, hopper+"'s turn")
			before := body(s)
			ts.clk.Advance(tablePace)
			alice.tm.WaitFunc("the computer's action", func(s string) bool { return body(s) != before })
		}
	}
	// The log names the computer's actions by its name.
	alice.tm.WaitFunc("the computer in the log", computerActed.MatchString)
	alice.tm.WaitFor("alice ended the turn")
	bob.tm.WaitFor("alice ended the turn")

	// Carol comes by code after the start: she watches, with no hand.
	carol := &player{name: "carol", key: sshtest.NewClientKey(t)}
	ts.connect(t, carol, "join "+code)
	s := carol.tm.WaitFor("alice ended the turn")
	require.NotContains(t, s, "Your hand")
	require.NotContains(t, s, "(you)")
	alice.tm.WaitFor("1 watching")

	// Bob drops: his seat is held, a computer stands in.
	require.NoError(t, bob.c.Close())
	alice.tm.WaitFor("bob (away)")
	ts.clk.Advance(tablePace)
	// Bob rejoins from the menu: it offers his seat.
	ts.connect(t, bob, "")
	bob.tm.WaitFor("You have a seat at a table of Kings in the Corner (" + code + ")")
	bob.tm.Send("s")
	bob.tm.WaitFor("bob (you)")
	alice.tm.WaitFunc("bob back", func(s string) bool { return !strings.Contains(s, "bob (away)") })

	aliceID, bobID := bobID(t, ts.testServer, "alice"), bobID(t, ts.testServer, "bob")
	runUntil(t, ts.clk, "the hand stored", func() bool { return len(recorded(t, ts, bobID, code)) == 1 })
	for _, p := range []*player{alice, bob} {
		s := p.tm.WaitFunc("the hand's outcome", func(s string) bool {
			return strings.Contains(s, "went out.") || strings.Contains(s, "Nobody went out.")
		})
		// The result line: who went out, and everyone's penalty points.
		require.Regexp(t, `Penalty points: alice \d+, bob \d+, `+hopper+` \d+\.`, strings.Join(strings.Fields(s), " "))
	}
	gs := recorded(t, ts, aliceID, code)
	require.Len(t, gs, 1)
	g := gs[0]
	require.True(t, g.MatchEnd, "a match of one hand")
	require.Equal(t, []string{"alice", "bob", hopper}, []string{g.Seats[0].Name, g.Seats[1].Name, g.Seats[2].Name})
	require.Equal(t, "hard", g.Seats[2].Strength)
	require.True(t, g.Seats[1].StoodIn, "a computer stood in for bob")
	require.Contains(t, string(g.Record), `"actions"`)
	replays(t, gs)

	// Stats: on the profile and in stats.
	st, err := ts.store.TableStats(t.Context(), aliceID)
	require.NoError(t, err)
	require.Equal(t, 1, st[0].Played)
	out, _, status = run(t, alice.c, "stats")
	require.Equal(t, 0, status)
	require.Regexp(t, `kings\s+1\s`, out)
	alice.tm.Send("q") // the game is over: q leaves at once
	s = alice.tm.WaitFor("Playing as alice")
	require.NotContains(t, s, "You have a seat", "a finished table is not offered")
	alice.tm.Send("p")
	require.Regexp(t, `Kings in the Corner\s+1\s`, alice.tm.WaitFor("Profile: alice"))
}

// Spite and Malice between two people to the end. Neither moves after
// their first discard: each turn clock runs out, and the computer plays the
// turn for them (the screen says so).
func TestEndToEndSpiteToTheEndOnTheClock(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	code := openTable(t, ts, "table spite", alice, bob)
	alice.tm.Send("s")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor("Spite and Malice")
	}
	// Whoever is to play waits out the clock.
	first := alice
	if s := alice.tm.WaitFunc("whose turn", func(s string) bool {
		return strings.Contains(s, "your turn") || strings.Contains(s, "bob's turn")
	}); !strings.Contains(s, "your turn") {
		first = bob
	}
	first.tm.WaitFor("your turn")
	ts.clk.Advance(tableClock)
	first.tm.WaitFor("Your time ran out: the computer plays this turn.")

	aliceID, bobID := bobID(t, ts.testServer, "alice"), bobID(t, ts.testServer, "bob")
	runUntil(t, ts.clk, "the game stored", func() bool { return len(recorded(t, ts, bobID, code)) == 1 })
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFunc("the outcome", func(s string) bool {
			return strings.Contains(s, "wins, scoring") || strings.Contains(s, "The game is drawn.")
		})
	}
	gs := recorded(t, ts, bobID, code)
	require.True(t, gs[0].Seats[0].StoodIn && gs[0].Seats[1].StoodIn, "the clock gave both turns to the computer")
	replays(t, gs)
	replays(t, recorded(t, ts, aliceID, code))
}

// The turn clock counts down on the screens with no key pressed: the
// table's screen is behind its page, and the router asks the page when it
// next changes.
func TestEndToEndTurnClockTicks(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	ts.connect(t, alice, "table spite normal")
	alice.tm.WaitFor("Invite: ")
	alice.tm.Send("s")
	clock := regexp.MustCompile(`turn (\d+:\d\d)`)
	first := clock.FindStringSubmatch(alice.tm.WaitFunc("a turn clock", func(s string) bool { return clock.MatchString(s) }))
	alice.tm.WaitFunc("the clock turning by itself", func(s string) bool {
		m := clock.FindStringSubmatch(s)
		return m != nil && m[1] != first[1]
	})
}

// A restart in the middle of a table: the table is saved as its record so
// far, restored by the new server under the same code, paused until both
// people are back (by code), and then played to its end.
func TestEndToEndTableSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	ts := startTableServer(t, dir)
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	code := openTable(t, ts, "table spite", alice, bob)
	alice.tm.Send("s")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor("Spite and Malice")
	}
	// Some turns go by on the clock.
	for range 4 {
		ts.clk.Advance(tableClock)
		time.Sleep(time.Millisecond)
	}
	var saved map[string][]byte
	var before []json.RawMessage
	runUntil(t, ts.clk, "a snapshot with actions", func() bool {
		var err error
		saved, err = ts.store.SavedTables(t.Context())
		require.NoError(t, err)
		before = actionsOf(t, saved[code], true)
		return len(before) > 0
	})
	ts.stop()

	ts2 := startTableServer(t, dir)
	saved, err := ts2.store.SavedTables(t.Context())
	require.NoError(t, err)
	require.Contains(t, saved, code, "the snapshot survived the restart")
	ts2.connect(t, alice, "join "+code)
	s := alice.tm.WaitFor("Paused until bob is back.")
	require.Contains(t, s, "alice (you)")
	// A minute passes (less than the hold): bob still has his seat.
	ts2.clk.Advance(time.Minute)
	ts2.connect(t, bob, "join "+code)
	bob.tm.WaitFor("bob (you)")
	alice.tm.WaitFunc("the pause over", func(s string) bool { return !strings.Contains(s, "Paused") })
	bobID := bobID(t, ts2.testServer, "bob")
	runUntil(t, ts2.clk, "the game stored", func() bool { return len(recorded(t, ts2, bobID, code)) == 1 })
	gs := recorded(t, ts2, bobID, code)
	replays(t, gs)
	after := actionsOf(t, gs[0].Record, false)
	require.Greater(t, len(after), len(before))
	require.Equal(t, before, after[:len(before)], "the game went on from where it was saved")
	require.False(t, gs[0].Seats[1].Gone, "bob kept his seat")
	// The table forgets its snapshot on its own goroutine, in the store's
	// next round of snapshots.
	require.Eventually(t, func() bool {
		saved, err := ts2.store.SavedTables(t.Context())
		require.NoError(t, err)
		_, ok := saved[code]
		return !ok
	}, 10*time.Second, 10*time.Millisecond, "a finished match needs no snapshot")
}

// The lobby as a player meets it: the menu opens Spite's lobby, alice
// opens a table with the form, bob finds it in his live list and sits,
// alice starts; bob leaves for good (q twice) and the computer has his seat.
func TestEndToEndLobbyOpenJoinStart(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	ts.connect(t, alice, "")
	alice.tm.WaitFor("Playing as alice")
	alice.tm.Send("9") // Spite and Malice
	alice.tm.WaitFor("No table is open")
	alice.tm.Send("n")
	alice.tm.WaitFor("Open a table")
	// Seat 2 from "computer, normal" to a person: the line before the
	// button, then left twice (normal, easy, a person).
	alice.tm.Send("\r") // jumps to the button
	alice.tm.Send("\x1b[A")
	alice.tm.Send("\x1b[D")
	alice.tm.WaitFor("computer, easy")
	alice.tm.Send("\x1b[D")
	alice.tm.WaitFor("a person")
	alice.tm.Send("\r\r")
	s := alice.tm.WaitFor("You sit in seat 1")
	code := tableCodeRE.FindStringSubmatch(s)[1]

	ts.connect(t, bob, "")
	bob.tm.WaitFor("Playing as bob")
	bob.tm.Send("9")
	bob.tm.WaitFor(code + "  Spite and Malice")
	bob.tm.Send("\r")
	bob.tm.WaitFor("You sit in seat 2")
	alice.tm.WaitFor("seated 2/2")
	alice.tm.Send("s")
	alice.tm.WaitFor("alice (you)")
	bob.tm.WaitFor("bob (you)")

	bob.tm.Send("q")
	bob.tm.WaitFor("q again")
	bob.tm.Send("q")
	bob.tm.WaitFor("Playing as bob")
	require.NotContains(t, bob.tm.Screen(), "You have a seat", "he left the seat for good")
	alice.tm.WaitFor("bob (normal)")
	alice.tm.WaitFor("bob left the table")
}

// A player seated at a table not started invites a friend from the lobby:
// the hub asks that the inviter follow them; the invitation reaches the
// friend as one line, and Y seats them at the table.
func TestEndToEndLobbyInviteAFriend(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	ts.connect(t, bob, "")
	bob.tm.WaitFor("Playing as bob")
	ts.connect(t, alice, "table spite")
	s := alice.tm.WaitFor("Invite: ")
	code := tableCodeRE.FindStringSubmatch(s)[1]
	alice.tm.WaitFor("i invite")

	alice.tm.Send("i")
	alice.tm.WaitFor("Invite whom")
	alice.tm.Send("bob\r")
	alice.tm.WaitFor("You can invite only players you follow")
	require.Contains(t, say(t, alice.c, "friend add bob"), "You follow bob now")
	alice.tm.Send("ibob\r")
	alice.tm.WaitFor("Invited bob.")

	bob.tm.WaitFor("alice invites you to a")
	bob.tm.WaitFor("Y join")
	bob.tm.Send("Y")
	bob.tm.WaitFor("You sit in seat 2")
	require.Contains(t, bob.tm.Screen(), "table "+code)
	alice.tm.WaitFor("seated 2/2")
}
