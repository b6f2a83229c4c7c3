package arcade

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/internal/sshtest"
)

// The code of a race and of a table that ended answer alike, "has ended",
// by join CODE and at the lobby's code prompt, in the run they ended in
// and after a restart.
func TestEndToEndEndedCodesAnswerAlike(t *testing.T) {
	dir := t.TempDir()
	ts := startTableServer(t, dir)
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	ts.connect(t, alice, "race klondike/draw1/11")
	race := codeOn(t, alice.tm.WaitFor("Invite: "))
	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	ts.connect(t, bob, "table spite hard")
	table := tableCodeRE.FindStringSubmatch(bob.tm.WaitFor("Invite: "))[1]
	// Both leave before anything starts: each room closes once empty.
	require.NoError(t, alice.c.Close())
	require.NoError(t, bob.c.Close())
	runUntil(t, ts.clk, "both rooms ended", func() bool {
		ended, err := ts.store.EndedRaces(t.Context(), ts.srv.cfg.Now())
		require.NoError(t, err)
		_, r := ended[race]
		_, tb := ended[table]
		return r && tb
	})

	carol := &player{name: "carol", key: sshtest.NewClientKey(t)}
	ask := func(ts *tableServer) {
		t.Helper()
		for _, code := range []string{race, table} {
			ts.connect(t, carol, "join "+code)
			carol.tm.WaitFor("The room " + code + " has ended, and its code with it.")
			require.NoError(t, carol.c.Close())
		}
		ts.connect(t, carol, "")
		carol.tm.WaitFor("Playing as carol")
		carol.tm.Send("9") // Spite and Malice's lobby
		carol.tm.WaitFor("Tables")
		for _, code := range []string{race, table} {
			carol.tm.Send("c" + code + "\r")
			carol.tm.WaitFor("The room " + code + " has ended, and its code with it.")
		}
		require.NoError(t, carol.c.Close())
	}
	ask(ts)
	ts.stop()
	ask(startTableServer(t, dir))
}
