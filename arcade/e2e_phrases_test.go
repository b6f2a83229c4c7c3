package arcade

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/command"
	"sshuffle/arcade/hub"
	"sshuffle/internal/sshtest"
)

// Quick phrases and the pace over real SSH: alice opens a Kings table at
// the instant pace by command, bob sits, alice starts; alice's "Good luck"
// reaches bob's screen with her name; a second one at once is refused with
// a sentence; bob mutes phrases, and alice's next one never reaches his
// screen while a watcher who comes in after it sees it. The room's clock
// is the test's, so a phrase stays up until the test moves it on.
func TestEndToEndQuickPhrases(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	cy := &player{name: "cyd", key: sshtest.NewClientKey(t)}
	code := openTable(t, ts, "table kings --pace instant person hard", alice, bob)
	alice.tm.WaitFor("Seats: 1 alice, 2 bob, 3 ")
	alice.tm.WaitFor("Pace: instant.")
	var list command.TableListing
	runJSON(t, alice.c, "tables --json", &list)
	require.Len(t, list.Tables, 1)
	require.Equal(t, "instant", list.Tables[0].Pace)
	out, _, status := run(t, alice.c, "tables")
	require.Equal(t, 0, status)
	require.Contains(t, out, "default settings, instant pace;")

	alice.tm.Send("s")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFunc("the table, at the instant pace", func(s string) bool {
			head, _, _ := strings.Cut(s, "\n")
			return strings.Contains(head, "Kings in the Corner") && strings.Contains(head, "· instant")
		})
	}

	alice.tm.Send("p")
	alice.tm.WaitFor("1 Good game  2 Well played  3 Good luck  4 Thanks  5 Oops  6 Rematch?  m mute")
	alice.tm.Send("3")
	bob.tm.WaitFor("alice: Good luck")
	alice.tm.WaitFor("alice: Good luck")
	alice.tm.Send("p")
	alice.tm.WaitFor("6 Rematch?")
	alice.tm.Send("1")
	alice.tm.WaitFor("One quick phrase every 3 seconds: wait a moment.")
	require.NotContains(t, bob.tm.Screen(), "alice: Good game")

	bob.tm.Send("p")
	bob.tm.WaitFor("m mute")
	bob.tm.Send("m")
	bob.tm.WaitFor("Quick phrases are off")
	ts.clk.Advance(hub.PhraseGap)
	alice.tm.Send("p")
	alice.tm.WaitFor("6 Rematch?")
	alice.tm.Send("4")
	alice.tm.WaitFor("alice: Thanks")
	// cyd comes in to watch after the phrase: the state that tells bob of
	// a watcher is newer than the phrase, and carries no phrase for him.
	ts.connect(t, cy, "join "+code)
	cy.tm.WaitFor("alice: Thanks")
	bob.tm.WaitFor("1 watching")
	require.NotContains(t, bob.tm.Screen(), "alice: Thanks")
	require.NotContains(t, bob.tm.Screen(), "Good luck")
}

// While a table still seats, its people talk in the lobby the same way:
// bob, waiting for the host, says "Good luck", and alice's lobby shows it.
func TestEndToEndQuickPhrasesWhileSeating(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	openTable(t, ts, "table kings person hard", alice, bob)
	alice.tm.WaitFor("Seats: 1 alice, 2 bob, 3 ")
	bob.tm.WaitFor("p phrases")
	bob.tm.Send("p")
	bob.tm.WaitFor("6 Rematch?")
	bob.tm.Send("3")
	alice.tm.WaitFor("bob: Good luck")
	bob.tm.WaitFor("bob: Good luck")
}
