package klondike

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// TestProbesSameOutcomes: a team of two gives the same outcomes with Draw 1
// probes as without, and with them proves deal 9626 lost within a budget
// that without them leaves it undecided.
func TestProbesSameOutcomes(t *testing.T) {
	solve := func(seed uint64, nodes int, off bool) engine.Outcome {
		probeOff = off
		defer func() { probeOff = false }()
		return SolveOn(engine.Spec{Game: "klondike", Variant: "draw3", Seed: seed}, nodes, 2).Outcome
	}
	for seed := uint64(1); seed <= 30; seed++ {
		with, without := solve(seed, 200_000, false), solve(seed, 200_000, true)
		if with != engine.Undecided && without != engine.Undecided {
			require.Equal(t, without, with, "deal %d", seed)
		}
	}
	require.Equal(t, engine.Impossible, solve(9626, 600_000, false), "deal 9626 with probes")
	require.Equal(t, engine.Undecided, solve(9626, 600_000, true), "deal 9626 without probes")
}

// TestProbesProveOnlyLost: every position a probe proves lost, probes
// before it having filled the tables it stops at, is lost in Draw 1 by a
// search of its own with no tables; and every position a probe finds won
// is won.
func TestProbesProveOnlyLost(t *testing.T) {
	// Positions along random lines of play from hard lost deals' starts.
	var positions []sstate
	sv := &solver{draw: 3}
	rng := uint64(88172645463325252)
	for _, seed := range []uint64{9626, 4439, 3145, 125} {
		g, err := New(engine.Spec{Game: "klondike", Variant: "draw3", Seed: seed})
		require.NoError(t, err)
		start := fromGame(g)
		sv.auto(&start, nil)
		for range 40 {
			s := start
			for range 80 {
				var next []sstate
				sv.expand(s, func(_ smove, n sstate) { next = append(next, n) })
				if len(next) == 0 {
					break
				}
				rng ^= rng << 13
				rng ^= rng >> 7
				rng ^= rng << 17
				s = next[rng%uint64(len(next))]
				positions = append(positions, s)
			}
		}
	}
	require.Greater(t, len(positions), 1000)
	o := newDrawOne(engine.NewSyncSet(1<<18), engine.NewSyncSet(1<<16))
	checked := map[engine.Outcome]int{}
	for i := range positions {
		s := &positions[i]
		lost, _ := o.probe(s)
		o.rest = 0
		out := o.in.out
		if out == engine.Undecided {
			continue
		}
		q := *s
		q.must, q.lay, q.cameDown = 0, 0, true
		alone, _, _ := (&solver{draw: 1}).search(q, 100_000)
		if alone == engine.Undecided {
			continue
		}
		checked[out]++
		require.Equal(t, out, alone, "position %d (probe said lost: %v)", i, lost)
	}
	require.Greater(t, checked[engine.Impossible], 20, "probes proved positions lost")
	require.Greater(t, checked[engine.Solved], 20, "probes found positions won")
}
