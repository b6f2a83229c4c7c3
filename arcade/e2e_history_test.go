package arcade

import (
	"bufio"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/games/spite"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
)

// A Spite game between two people over SSH, played to its end on the
// turn clock, is in both people's histories under one id; alice replays
// it by command and bob from his profile's history page, both to its last
// action; and alice's export of it passes the rules' replay.
func TestEndToEndHistoryAndReplay(t *testing.T) {
	ts := startTableServer(t, t.TempDir())
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	code := openTable(t, ts, "table spite", alice, bob)
	alice.tm.Send("s")
	for _, p := range []*player{alice, bob} {
		p.tm.WaitFor("Spite and Malice")
	}
	aliceID, bobID := bobID(t, ts.testServer, "alice"), bobID(t, ts.testServer, "bob")
	runUntil(t, ts.clk, "the game stored", func() bool {
		return len(recorded(t, ts, aliceID, code)) == 1 && len(recorded(t, ts, bobID, code)) == 1
	})
	g := recorded(t, ts, aliceID, code)[0]
	id := store.TableGameID(g)
	var rec struct {
		Actions []any `json:"actions"`
	}
	require.NoError(t, json.Unmarshal(g.Record, &rec))
	n := strconv.Itoa(len(rec.Actions))

	// In both histories, under the same id.
	for _, p := range []*player{alice, bob} {
		var h struct {
			Games []struct {
				ID, Kind, Game string
			} `json:"games"`
		}
		runJSON(t, p.c, "history", &h)
		require.NotEmpty(t, h.Games, p.name)
		require.Equal(t, id, h.Games[0].ID, p.name)
		require.Equal(t, "table", h.Games[0].Kind)
		require.Equal(t, "spite", h.Games[0].Game)
	}

	// alice replays it by its id, to its last action.
	_ = alice.c.Close()
	ts.connect(t, alice, "replay "+id)
	alice.tm.WaitFor("Move 0/" + n + " ")
	alice.tm.Send("l")
	alice.tm.WaitFor("Move 1/" + n + " ")
	alice.tm.Send("$")
	s := alice.tm.WaitFor("Move " + n + "/" + n + " ")
	require.Regexp(t, `wins, scoring|The game is drawn\.`, s)

	// bob from the menu: profile, history, enter on the newest game.
	_ = bob.c.Close()
	ts.connect(t, bob, "")
	bob.tm.WaitFor("profile")
	bob.tm.Send("p")
	bob.tm.WaitFor("history and replays")
	bob.tm.Send("h")
	bob.tm.WaitFor("History: your finished games")
	require.Contains(t, bob.tm.Screen(), "spite with alice")
	bob.tm.Send("\r")
	bob.tm.WaitFor("Move 0/" + n + " ")
	bob.tm.Send("$")
	bob.tm.WaitFor("Move " + n + "/" + n + " ")

	// alice's export: the table game's line is a record the rules replay.
	c := sshtest.Dial(t, ts.addr, "alice", alice.key)
	defer c.Close()
	out, errOut, code2 := run(t, c, "export")
	require.Equal(t, 0, code2, errOut)
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	lines := 0
	for sc.Scan() {
		lines++
		require.Contains(t, sc.Text(), `"id":"`+id+`"`)
		require.NoError(t, spite.Replay(sc.Bytes()))
	}
	require.Equal(t, 1, lines, out)
}
