package arcade

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/save"
	"sshuffle/engine"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
)

// A race the server lost: the server stops in the middle of a race (the
// race never ends) and a new one starts on the same store. The race's
// code answers that the room has ended, and the racer's game is their
// saved game of Klondike, continuing where it was; the menu tells her so.
func TestEndToEndRaceLostWithTheServer(t *testing.T) {
	dir := t.TempDir()
	ts := startTableServer(t, dir)
	spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: 11}
	alice := &player{name: "alice", key: sshtest.NewClientKey(t)}
	ts.connect(t, alice, "race "+spec.String())
	code := codeOn(t, alice.tm.WaitFor("Invite: "))
	alice.tm.Send("s")
	for n := 3; n >= 1; n-- {
		alice.tm.WaitFor(fmt.Sprintf("Starting in %d", n))
		ts.clk.Advance(time.Second)
	}
	alice.tm.WaitFor("Moves 0 ")
	for n := 1; n <= 3; n++ {
		alice.tm.Send("d")
		alice.tm.WaitFor(fmt.Sprintf("Moves %d ", n))
	}
	aliceID := bobID(t, ts.testServer, "alice")
	// The race's record is written while it runs, not only as the server
	// stops (a server that is killed does not stop).
	require.Eventually(t, func() bool {
		rs, err := ts.store.LiveRaces(t.Context())
		require.NoError(t, err)
		return len(rs) == 1 && rs[0].Code == code && len(rs[0].Racers) == 1 && rs[0].Racers[0].Moves == 3
	}, 10*time.Second, 20*time.Millisecond)
	_, err := ts.store.GetSave(t.Context(), aliceID, "klondike/draw1")
	require.ErrorIs(t, err, store.ErrNotFound, "a race's game is no saved game while the race runs")
	ts.stop()

	ts2 := startTableServer(t, dir)
	data, err := ts2.store.GetSave(t.Context(), aliceID, "klondike/draw1")
	require.NoError(t, err, "the race's game is alice's saved game")
	got, err := save.Spec(data)
	require.NoError(t, err)
	require.Equal(t, spec, got)

	bob := &player{name: "bob", key: sshtest.NewClientKey(t)}
	ts2.connect(t, bob, "join "+code)
	bob.tm.WaitFor("The room " + code + " has ended, and its code with it.")
	bob.tm.WaitFor("Playing as bob")

	ts2.connect(t, alice, "")
	alice.tm.WaitFor("Race " + code + " ended in a server restart; your Klondike · Draw 1 game is saved.")
	alice.tm.Send("\r")
	s := alice.tm.WaitFor("Resumed your saved game")
	require.Contains(t, s, "Moves 3 ", "the game continues where it was in the race")
}
