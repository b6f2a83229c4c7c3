package arcade

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/sshtest"
)

// A guest (no key) watches a table of a person and a computer over SSH:
// one by the code (join CODE), one from the table lobby. The others see
// them as watchers, never by the user name their client sent; the board
// moves on with no key of theirs; a guest's key at the table moves
// nothing, and the lobby does not let a guest open a table.
func TestEndToEndGuestWatchesATable(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	code := openTable(t, ts, "table spite hard", alice)
	alice.tm.Send("s")
	alice.tm.WaitFor("alice (you)")

	byCode := &player{name: "visitor"} // no key: a guest
	ts.connect(t, byCode, "join "+code)
	s := byCode.tm.WaitFor("Spite and Malice")
	require.Contains(t, s, "alice")
	require.NotContains(t, s, "(you)", "a watcher has no seat")
	require.NotContains(t, s, "Your hand")
	alice.tm.WaitFor("1 watching")
	require.NotContains(t, alice.tm.Screen(), "visitor", "a guest's user name reaches nobody")

	// The table plays on (the computer's actions, alice's turns on the
	// clock); the guest's board follows it.
	before := body(byCode.tm.Screen())
	runUntil(t, ts.clk, "the guest's board moving on", func() bool { return body(byCode.tm.Screen()) != before })

	// A key of the guest's at the table moves nothing: the room says so.
	byCode.tm.Send("e")
	byCode.tm.WaitFor("You are watching")

	// A second guest, from the menu and the table lobby.
	lobby := &player{name: "stranger"}
	ts.connect(t, lobby, "")
	lobby.tm.WaitFor("Playing as guest")
	lobby.tm.Send("9") // Spite and Malice
	lobby.tm.WaitFor(code + "  Spite and Malice")
	require.NotContains(t, lobby.tm.Screen(), "new table", "a guest is not offered a table of their own")
	lobby.tm.Send("n")
	lobby.tm.WaitFor("Guests can only watch")
	lobby.tm.Send("\r")
	s = lobby.tm.WaitFunc("the table, watched", func(s string) bool {
		return strings.Contains(s, "alice") && strings.Contains(s, "Spite and Malice") && !strings.Contains(s, "Tables")
	})
	require.NotContains(t, s, "(you)")
	alice.tm.WaitFor("2 watching")
}

// A race watched by code: watch CODE makes a player with a key a watcher
// while its lobby is still open (join would make him a racer), and a guest
// joining by the code watches too, shown as "a guest".
func TestEndToEndWatchARaceByCode(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	ts.connect(t, alice, "race klondike/draw1/11")
	code := codeOn(t, alice.tm.WaitFor("Invite: "))
	dave := &player{name: "dave", key: sshtest.NewClientKey(t)}
	ts.connect(t, dave, "watch "+code)
	alice.tm.WaitFor("Watching: dave")
	require.NotContains(t, alice.tm.Screen(), "Racers (2/", "dave watches, he does not race")
	guest := &player{name: "mallory"}
	ts.connect(t, guest, "join "+code)
	alice.tm.WaitFor("Watching: dave, a guest")
	require.NotContains(t, alice.tm.Screen(), "mallory")
	guest.tm.WaitFor("Race " + code)
	guest.tm.Send("ifriend\r")
	guest.tm.WaitFor("Guests can only watch")
}
