package arcade

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/sshtest"
)

// A newcomer on a terminal without colour (TERM=dumb) at 80x24 sees the
// cursor and what is held in the text itself.
func TestDumbTerminalShowsCursorAndHeldCard(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "dora", sshtest.NewClientKey(t))
	defer c.Close()
	tm := sshtest.OpenTermAs(t, c, "dumb", map[string]string{"LANG": "en_US.UTF-8"})
	tm.WaitFor("Playing as dora")
	tm.Send("\r")
	tm.WaitFor("Moves 0")
	s := tm.WaitFor("<")
	require.Regexp(t, `>\[[ 0-9AJQK]{2}.\]<|>\([ 0-9AJQK]{2}.\)<`, s, "the cursor, in text")
	tm.Send(" ")
	s = tm.WaitFor("Holding ")
	require.Regexp(t, `>[\[(][ 0-9AJQK]{2}.[\])]\*`, s, "the held card under the cursor")
	tm.Send("l")
	s = tm.WaitFor("<")
	require.Regexp(t, `\*[\[(][ 0-9AJQK]{2}.[\])]\*`, s, "the held card, the cursor gone on")
	tm.Send("\x1b")
	tm.WaitFor("Put back.")
}

// A player who skipped the name picker is asked again on the next visit,
// and can change the name from the profile.
func TestSkippedNameIsAskedAgain(t *testing.T) {
	ts := startServer(t)
	key := sshtest.NewClientKey(t)
	c := sshtest.Dial(t, ts.addr, "x", key) // too short to be a name
	tm := sshtest.OpenTerm(t, c, nil)
	tm.WaitFor("can't be a player name")
	tm.Send("\x1b") // later
	tm.WaitFor("Playing as (no name yet)")
	c.Close()

	c2 := sshtest.Dial(t, ts.addr, "x", key)
	defer c2.Close()
	tm = sshtest.OpenTerm(t, c2, nil)
	tm.WaitFor("You have no player name yet")
	tm.Send("quill\r")
	tm.WaitFor("Playing as quill")

	tm.Send("p")
	tm.WaitFor("change your name")
	tm.Send("n")
	s := tm.WaitFor("Change your player name")
	require.Contains(t, s, "quill", "the old name to edit")
	tm.Send(strings.Repeat("\x7f", 5) + "quince\r")
	tm.WaitFor("Profile: quince")
}

// A newcomer whose SSH user name is a computer player's is not given it,
// and the name picker refuses it too: a person and a computer are never
// named alike at a table.
func TestComputerNameIsNoNewcomersName(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "hopper", sshtest.NewClientKey(t))
	defer c.Close()
	tm := sshtest.OpenTerm(t, c, nil)
	s := tm.WaitFor("can't be a player name")
	require.Regexp(t, `"hopper" belongs to\s+a computer player`, s)
	tm.Send("Ada\r")
	tm.WaitFor(`"Ada" belongs to`)
	tm.Send(strings.Repeat("\x7f", 3) + "grace_h\r")
	tm.WaitFor("Playing as grace_h")
}
