package klondike

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// TestFreshCoveredHolds: where the dead check finds that no fresh talon
// card can be the first talon card played, tableau moves alone from that
// position (the search's own, down from foundations too) never reach one
// where a fresh card could be played.
func TestFreshCoveredHolds(t *testing.T) {
	type found struct {
		s     sstate
		fresh uint64
	}
	var got []found
	onFreshCovered = func(s *sstate, fresh uint64) {
		if len(got) < 400 {
			got = append(got, found{*s, fresh})
		}
	}
	defer func() { onFreshCovered = nil }()
	sv := &solver{draw: 3}
	for seed := uint64(1); seed <= 80 && len(got) < 400; seed++ {
		g, err := New(engine.Spec{Game: "klondike", Variant: "draw3", Seed: seed})
		require.NoError(t, err)
		s := fromGame(g)
		sv.auto(&s, nil)
		sv.search(s, 40_000)
	}
	require.Greater(t, len(got), 100, "searches of deals 1-80 leave positions out this way")
	playable := func(s *sstate, fresh uint64) bool {
		for _, c := range s.talon[:s.tn] {
			if fresh>>c&1 == 0 {
				continue
			}
			if s.fits(c) {
				return true
			}
			for k := range 7 {
				if (s.n[k] == 0 && c.Rank() == engine.King) || (s.n[k] > 0 && onto(c, s.col[k][s.n[k]-1])) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range got {
		start := p.s
		seen := map[uint64]bool{sv.key(&start): true}
		queue := []sstate{start}
		for len(queue) > 0 && len(seen) < 5000 {
			s := queue[0]
			queue = queue[1:]
			require.False(t, playable(&s, p.fresh), "a fresh card can be played after tableau moves")
			sv.expand(s, func(m smove, n sstate) {
				if m.kind == mTalon {
					return
				}
				if k := sv.key(&n); !seen[k] {
					seen[k] = true
					queue = append(queue, n)
				}
			})
		}
	}
}

// TestFreshSameOutcomes: leaving out what fresh does changes no deal's
// outcome, only how many positions it takes.
func TestFreshSameOutcomes(t *testing.T) {
	defer func() { freshOff = false }()
	last := uint64(120)
	if raceEnabled {
		last = 40
	}
	fewer, decided := 0, 0
	for seed := uint64(1); seed <= last; seed++ {
		spec := engine.Spec{Game: "klondike", Variant: "draw3", Seed: seed}
		freshOff = true
		off := Solve(spec, 60_000)
		freshOff = false
		on := Solve(spec, 60_000)
		if on.Outcome != engine.Undecided && off.Outcome != engine.Undecided {
			decided++
			require.Equal(t, off.Outcome, on.Outcome, "deal %d", seed)
		}
		require.False(t, on.Outcome == engine.Impossible && off.Outcome == engine.Solved, "deal %d", seed)
		if on.Outcome == engine.Impossible && off.Outcome == engine.Impossible && on.Nodes < off.Nodes {
			fewer++
		}
	}
	require.Greater(t, decided, int(last)*9/10)
	require.Greater(t, fewer, 0, "some lost deal is proved lost sooner")
}

// TestHandedDownSameOutcomes: leaving out what lim does (the fresh cards
// a tableau move hands down) changes no deal's outcome either, and it
// proves some lost deals lost sooner.
func TestHandedDownSameOutcomes(t *testing.T) {
	defer func() { handDownOff = false }()
	last := uint64(120)
	if raceEnabled {
		last = 30
	}
	solve := func(seed uint64) (on, off engine.Result[engine.Action]) {
		spec := engine.Spec{Game: "klondike", Variant: "draw3", Seed: seed}
		handDownOff = true
		off = Solve(spec, 60_000)
		handDownOff = false
		return Solve(spec, 60_000), off
	}
	decided := 0
	for seed := uint64(1); seed <= last; seed++ {
		on, off := solve(seed)
		if on.Outcome != engine.Undecided && off.Outcome != engine.Undecided {
			decided++
			require.Equal(t, off.Outcome, on.Outcome, "deal %d", seed)
		}
		require.False(t, on.Outcome == engine.Impossible && off.Outcome == engine.Solved, "deal %d", seed)
	}
	require.Greater(t, decided, int(last)*9/10)
	// Lost deals it shortens (one search alone is the same every run).
	for _, seed := range []uint64{221, 295, 543} {
		on, off := solve(seed)
		require.Equal(t, engine.Impossible, off.Outcome, "deal %d", seed)
		require.Equal(t, engine.Impossible, on.Outcome, "deal %d", seed)
		require.Less(t, on.Nodes, off.Nodes, "deal %d", seed)
	}
}
