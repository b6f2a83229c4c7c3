package arcade

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/arcade/command"
	"sshuffle/arcade/hub"
	"sshuffle/internal/sshtest"
)

// say runs a text command on its own session and returns what it
// printed, stdout and stderr together.
func say(t *testing.T, c *gossh.Client, cmd string) string {
	t.Helper()
	out, errOut, _ := run(t, c, cmd)
	return out + errOut
}

func friendsJSON(t *testing.T, c *gossh.Client) command.FriendList {
	t.Helper()
	var l command.FriendList
	runJSON(t, c, "friends", &l)
	return l
}

// Friends and presence seen from a second client; an invitation reaches a
// friend on whatever screen, and is accepted with one key.
func TestEndToEndFriendsPresenceAndInvitations(t *testing.T) {
	// No invite host set: the friends list names the address the client reached.
	ts := startServerWith(t, Config{HubClock: hub.NewManualClock()})
	aliceKey, bobKey := sshtest.NewClientKey(t), sshtest.NewClientKey(t)

	ca := sshtest.Dial(t, ts.addr, "alice", aliceKey)
	defer ca.Close()
	alice := sshtest.OpenTerm(t, ca, nil)
	alice.WaitFor("Playing as alice")
	cb := sshtest.Dial(t, ts.addr, "bob", bobKey)
	defer cb.Close()
	bob := sshtest.OpenTerm(t, cb, nil)
	bob.WaitFor("Playing as bob")

	require.Contains(t, say(t, ca, "friend add bob"), "You follow bob now")
	require.Contains(t, say(t, ca, "friend add nobody-here"), "Nobody here is called nobody-here")
	l := friendsJSON(t, ca)
	require.Len(t, l.Friends, 1)
	require.Equal(t, command.Friend{Name: "bob", Online: true, Doing: "at the menu"}, l.Friends[0])

	// Bob opens a race: alice's second client sees where he is.
	bob.Send("r")
	bob.WaitFor("a new deal")
	bob.Send("n")
	code := codeOn(t, bob.WaitFor("Invite: "))
	require.Eventually(t, func() bool {
		f := friendsJSON(t, ca).Friends[0]
		_, port, _ := strings.Cut(ts.addr, ":")
		return f.Doing == "racing" && f.Room == code && f.Game == "klondike/draw1" && f.Watchable &&
			f.Watch == "ssh -t -p "+port+" 127.0.0.1 join "+code
	}, 10e9, 20e6)
	require.Contains(t, say(t, ca, "friends"), "bob                  online, racing Klondike Draw 1 (code "+code+"; watch: ssh -t -p ")

	// Alice's friends screen shows him too, and enter watches his race.
	alice.Send("f")
	s := alice.WaitFor("Friends")
	require.Contains(t, s, "online, racing Klondike Draw 1 · "+code+" (enter to watch)")
	alice.Send("\r")
	alice.WaitFor("Race " + code)
	bob.WaitFor("Watching: alice")
	alice.Send("q")
	alice.WaitFor("Playing as alice")

	// Bob invites alice: he must follow her first.
	bob.Send("i")
	bob.Send("alice\r")
	bob.WaitFor("You can invite only players you follow")
	require.Contains(t, say(t, cb, "friend add alice"), "You follow alice now")
	bob.Send("ialice\r")
	bob.WaitFor("Invited alice")
	alice.WaitFor("bob invites you to a race of Klondike Draw 1, deal #")
	alice.WaitFor("Y join")
	alice.Send("Y")
	alice.WaitFor("Racers (2/8)")
	bob.WaitFor("Racers (2/8)")
	bob.WaitFor("alice accepted your invitation")

	// Invitations off: a stored setting; bob's next invitation is refused.
	alice.Send("q")
	alice.WaitFor("Playing as alice")
	alice.Send("f")
	alice.WaitFor("Invitations to you: on")
	alice.Send("i")
	alice.WaitFor("Invitations to you: off")
	bob.Send("ialice\r")
	bob.WaitFor("alice has invitations turned off")
	acc, err := ts.store.AccountByName(t.Context(), "alice")
	require.NoError(t, err)
	v, err := ts.store.Setting(t.Context(), acc.ID, "invitations")
	require.NoError(t, err)
	require.Equal(t, "off", v)

	// Unfollowing by name.
	require.Contains(t, say(t, ca, "friend remove bob"), "You no longer follow bob")
	require.Empty(t, friendsJSON(t, ca).Friends)
	bob.Send("q")
	bob.WaitFor("Playing as bob")
	require.True(t, strings.Contains(say(t, ca, "friends"), "You follow nobody yet"))
}

// An invite line pasted as a command opens the room; a new key goes
// through the name picker first; a wrong code says so.
func TestEndToEndInviteLinePasted(t *testing.T) {
	ts := startServerWith(t, Config{HubClock: hub.NewManualClock(), InviteHost: "127.0.0.1"})
	ca := sshtest.Dial(t, ts.addr, "alice", sshtest.NewClientKey(t))
	defer ca.Close()
	alice := sshtest.OpenTermCmd(t, ca, nil, "race freecell")
	s := alice.WaitFor("Invite: ")
	code := codeOn(t, s)
	i := strings.Index(s, "ssh -t -p ")
	require.GreaterOrEqual(t, i, 0)
	line := strings.Fields(s[i:])[:7] // ssh -t -p PORT HOST join CODE
	require.Equal(t, []string{"join", code}, line[5:])
	_, port, _ := strings.Cut(ts.addr, ":")
	require.Equal(t, port, line[3])
	require.Equal(t, "127.0.0.1", line[4])

	// A new key whose user name cannot be a player name: the picker first,
	// then straight into the room.
	cn := sshtest.Dial(t, line[4]+":"+line[3], "x", sshtest.NewClientKey(t))
	defer cn.Close()
	newcomer := sshtest.OpenTermCmd(t, cn, nil, strings.Join(line[5:], " "))
	newcomer.WaitFor("Pick a player name")
	newcomer.Send("newbie\r")
	s = newcomer.WaitFor("Racers (2/8)")
	require.Contains(t, s, "Race "+code)
	require.Contains(t, s, "newbie (you)")
	alice.WaitFor("newbie")

	// A wrong code, and a malformed one, say so on the menu.
	cw := sshtest.Dial(t, ts.addr, "walt", sshtest.NewClientKey(t))
	defer cw.Close()
	wrong := "ZZZZZ"
	if code == wrong {
		wrong = "YYYYY"
	}
	w := sshtest.OpenTermCmd(t, cw, nil, "join "+wrong)
	w.WaitFor("No room has the code " + wrong)
	w.WaitFor("Playing as walt")
	require.Contains(t, say(t, cw, "join "+code), "needs a terminal")
}
