package arcade

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/engine"
	"sshuffle/internal/sshtest"
	"sshuffle/store"
)

// A ghost race against a stored run: a friend's result of the same deal,
// replayed at its own pace on the room's clock.
func TestEndToEndGhostRace(t *testing.T) {
	clk := hub.NewManualClock()
	ts := startServerWith(t, Config{HubClock: clk, InviteHost: "127.0.0.1"})
	ctx := t.Context()
	spec := engine.Spec{Game: "klondike", Variant: "draw1", Seed: 4242}

	// Bob's stored run of the deal: three steps, then stuck with 3 home.
	_, err := ts.store.CreateAccount(ctx, "SHA256:bob", "bob")
	require.NoError(t, err)
	require.NoError(t, ts.store.RecordResult(ctx, store.Result{
		Account: "SHA256:bob", Name: "bob", Spec: spec.String(), Key: spec.Key(), Moves: 7,
		Elapsed: 5 * time.Second, Finished: time.Now(), Total: 52,
		Timeline: []store.Step{{At: 0}, {At: time.Second, Home: 1, Moves: 1}, {At: 2 * time.Second, Home: 2, Moves: 3}, {At: 5 * time.Second, Home: 3, Moves: 7}},
	}))

	key := sshtest.NewClientKey(t)
	ca := sshtest.Dial(t, ts.addr, "alice", key)
	defer ca.Close()
	alice := sshtest.OpenTermCmd(t, ca, nil, "race "+spec.String())
	alice.WaitFor("Invite: ")
	alice.Send("g")
	alice.WaitFor("No stored run of this deal") // she follows nobody yet
	require.Contains(t, say(t, ca, "friend add bob"), "You follow bob now")
	alice.Send("g")
	alice.WaitFor("Added the ghost of bob's run")
	alice.WaitFor("bob (ghost)")
	alice.Send("s")
	for _, n := range []string{"3", "2", "1"} {
		alice.WaitFor("Starting in " + n)
		clk.Advance(time.Second)
	}
	alice.WaitFor("Moves 0 ")
	alice.WaitFor("0/52 0m") // the ghost at the start of its run
	clk.Advance(time.Second)
	alice.WaitFor("1/52 1m")
	clk.Advance(time.Second)
	alice.WaitFor("2/52 3m")

	// Alice gives up: the ghost plays out its run and takes its place.
	alice.Send("qq")
	s := alice.WaitFor("results")
	require.Regexp(t, `1\s+1st\s+bob \(ghost\)\s+over`, s)
	require.Contains(t, s, "alice (you)")
	acc, err := ts.store.AccountByName(ctx, "alice")
	require.NoError(t, err)
	races, err := ts.store.Races(ctx, acc.ID, 5)
	require.NoError(t, err)
	require.Len(t, races, 1)
	require.True(t, races[0].Racers[0].Ghost)
	require.Equal(t, 1, races[0].Racers[0].Place)
}

// daily --json rates every daily deal with the solver.
func TestDailyJSONHasDifficulty(t *testing.T) {
	ts := startServer(t)
	c := sshtest.Dial(t, ts.addr, "dana", sshtest.NewClientKey(t))
	defer c.Close()
	var v struct {
		Games []struct {
			Game       string
			Difficulty *struct {
				Level     int
				Name      string
				Positions int `json:"positions_searched"`
				Solved    bool
			}
		}
	}
	runJSON(t, c, "daily", &v)
	require.NotEmpty(t, v.Games)
	for _, g := range v.Games {
		require.NotNil(t, g.Difficulty, g.Game)
		require.Contains(t, []string{"easy", "medium", "hard", "very hard"}, g.Difficulty.Name, g.Game)
		require.Positive(t, g.Difficulty.Positions, g.Game)
	}
	out, _, _ := run(t, c, "daily")
	require.Contains(t, out, "difficulty")

	// Rated now: the menu shows the highlighted game's, before it is played.
	tm := sshtest.OpenTerm(t, c, nil)
	s := tm.WaitFor("Today's deal: ")
	require.Regexp(t, `Today's deal: (easy|medium|hard|very hard) \(solver: \d+ moves`, s)
	tm.Send("t")
	tm.WaitFor("Difficulty:")
}
