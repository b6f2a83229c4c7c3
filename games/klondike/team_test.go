package klondike

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// TestTeamAgrees: a deal searched by a team from its first position gets
// the same answer as one search gets, and a team's win replays.
func TestTeamAgrees(t *testing.T) {
	defer func(n int) { teamAfter = n }(teamAfter)
	teamAfter = 0
	deals := map[string][]uint64{
		"draw1": {0, 1, 2, 3, 48, 67},     // 48 and 67 are lost
		"draw3": {0, 1, 2, 3, 10, 15, 22}, // 10, 15 and 22 are lost
	}
	lost := 0
	for v, seeds := range deals {
		for _, seed := range seeds {
			spec := engine.Spec{Game: "klondike", Variant: v, Seed: seed}
			one := Solve(spec, 30_000)
			two := SolveOn(spec, 30_000, 2)
			if two.Outcome == engine.Solved {
				replayWins(t, spec, two.Moves)
			}
			if one.Outcome != engine.Undecided && two.Outcome != engine.Undecided {
				require.Equal(t, one.Outcome, two.Outcome, "%s", spec)
			}
			if two.Outcome == engine.Impossible {
				lost++
			}
		}
	}
	require.GreaterOrEqual(t, lost, 4, "the team proves the lost deals lost")
}

// TestTeamBudget: a team stops near its budget, counting every search's
// positions.
func TestTeamBudget(t *testing.T) {
	r := SolveOn(engine.Spec{Game: "klondike", Variant: "draw3", Seed: 251}, 60_000, 2)
	require.Equal(t, engine.Undecided, r.Outcome)
	require.GreaterOrEqual(t, r.Nodes, 60_000)
	// Each goroutine counts in steps of tick and may take one more step
	// before it sees the stop, and reports the rest when it ends.
	require.LessOrEqual(t, r.Nodes, 60_000+4*tick)
}

func TestSyncDom(t *testing.T) {
	d := newSyncDom(64)
	require.False(t, covers(d, 7, 0b0011))
	d.put(7, 0b0011)
	require.True(t, covers(d, 7, 0b0001))
	require.True(t, covers(d, 7, 0b0011))
	require.False(t, covers(d, 7, 0b0100))
	require.False(t, covers(d, 8, 0b0001))
	// Two masks for one base cover what lies within their union.
	d.put(7, 0b1100_0100)
	require.True(t, covers(d, 7, 0b1100_0000))
	require.True(t, covers(d, 7, 0b1100_0111))
	require.False(t, covers(d, 7, 0b1_0000_0001))

	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for b := uint64(100); b < 140; b++ {
				d.put(b, uint32(1)<<w|1)
			}
		})
	}
	wg.Wait()
	for b := uint64(100); b < 140; b++ {
		require.True(t, covers(d, b, 0b1111), "base %d", b)
		require.False(t, covers(d, b, 0b1_0000), "base %d", b)
	}
}

func TestTeamTablesReusedEmpty(t *testing.T) {
	// A team's tables go to the next team of the process: it must find
	// them empty, or it would skip positions it never searched.
	for _, draw3 := range []bool{false, true} {
		a := takeTables(1<<12, draw3)
		for k := uint64(1); k <= 1000; k++ {
			if draw3 {
				a.dom.put(k*7919, 0b101)
			} else {
				a.done.Add(k * 7919)
			}
		}
		giveBack(a)
		b := takeTables(1<<12, draw3)
		require.Same(t, a, b, "the spare tables are reused")
		for k := uint64(1); k <= 1000; k++ {
			if draw3 {
				require.False(t, covers(b.dom, k*7919, 0b1), "base %d kept", k)
			} else {
				require.False(t, b.done.Has(k*7919), "key %d kept", k)
			}
		}
		giveBack(b)
	}
}

// TestDrawOneLossGetsTheTeam: a Draw 3 deal lost in Draw 1 is proved lost
// within little more than its Draw 1 proof. Deal 967's Draw 1 search runs
// out at about 300k positions; sharing the team with a Draw 3 search, it
// got half of a budget of 450k and the deal stayed undecided.
func TestDrawOneLossGetsTheTeam(t *testing.T) {
	if raceEnabled {
		t.Skip("a third of a million positions: minutes under the race detector")
	}
	r := SolveOn(engine.Spec{Game: "klondike", Variant: "draw3", Seed: 967}, 450_000, 2)
	require.Equal(t, engine.Impossible, r.Outcome)
}

// TestTeamTurnsAgree: a team run in many short turns, each ending with
// every search mid-line, gets one search's answers. A turn that left its
// searches' paths marked as searched would prove won deals lost.
func TestTeamTurnsAgree(t *testing.T) {
	lost, won := 0, 0
	for _, spec := range []engine.Spec{
		// Won after some thousands of positions, and lost.
		{Game: "klondike", Variant: "draw1", Seed: 3}, {Game: "klondike", Variant: "draw1", Seed: 13},
		{Game: "klondike", Variant: "draw1", Seed: 67}, {Game: "klondike", Variant: "draw3", Seed: 7},
		{Game: "klondike", Variant: "draw3", Seed: 28}, {Game: "klondike", Variant: "draw3", Seed: 31},
		{Game: "klondike", Variant: "draw3", Seed: 32}, {Game: "klondike", Variant: "draw3", Seed: 76},
	} {
		one := Solve(spec, 200_000)
		g, err := New(spec)
		require.NoError(t, err)
		sv := &solver{draw: g.draw}
		start := fromGame(g)
		var pre path
		sv.auto(&start, &pre)
		tm := sv.newTeam(newDFS(sv, start), start, 200_000, 2)
		for n := 0; n < 200_000 && !tm.closed; {
			n = tm.runTo(n, n+1500, 200_000)
		}
		tm.release()
		require.NotEqual(t, engine.Undecided, tm.out, "%s", spec)
		if one.Outcome != engine.Undecided {
			require.Equal(t, one.Outcome, tm.out, "%s", spec)
		}
		switch tm.out {
		case engine.Solved:
			p := pre
			for _, m := range tm.path {
				sv.apply(&start, m, &p)
			}
			replayWins(t, spec, p)
			won++
		case engine.Impossible:
			lost++
		}
	}
	require.GreaterOrEqual(t, lost, 3, "the teams prove the lost deals lost")
	require.GreaterOrEqual(t, won, 3, "the teams win the won deals")
}
