package klondike

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

func replayWins(t testing.TB, spec engine.Spec, moves []engine.Action) {
	t.Helper()
	g, err := New(spec)
	require.NoError(t, err)
	for i, a := range moves {
		require.NoError(t, g.Do(a), "move %d: %+v", i, a)
	}
	require.True(t, g.Won())
}

func TestSolveReplays(t *testing.T) {
	solved := 0
	for _, v := range []string{"draw1", "draw3"} {
		seeds := uint64(12)
		if raceEnabled {
			seeds = 4
		}
		for seed := range seeds {
			spec := engine.Spec{Game: "klondike", Variant: v, Seed: seed}
			r := Solve(spec, 200_000)
			if r.Outcome == engine.Solved {
				solved++
				replayWins(t, spec, r.Moves)
			}
		}
	}
	require.Greater(t, solved, 2)
}

func TestSolveGameFromAPosition(t *testing.T) {
	spec := engine.Spec{Game: "klondike", Variant: "draw3", Seed: 5}
	g, err := New(spec)
	require.NoError(t, err)
	for range 6 {
		a, _, ok := g.Hint()
		require.True(t, ok)
		require.NoError(t, g.Do(a))
	}
	r := SolveGame(g, 300_000)
	require.Equal(t, engine.Solved, r.Outcome)
	for _, a := range r.Moves {
		require.NoError(t, g.Do(a))
	}
	require.True(t, g.Won())
}

func TestSolveImpossible(t *testing.T) {
	// Nothing can ever move: the 2♣ is buried under the A♣.
	g := mustLayout(t, Layout{Columns: [7][]engine.Card{cards("AC 2C")}, FaceDown: [7]int{1}})
	require.Equal(t, engine.Impossible, SolveGame(g, 1000).Outcome)
	// A bad spec is no deal to solve, so neither won nor lost.
	require.Equal(t, engine.Undecided, Solve(engine.Spec{Game: "spider"}, 1000).Outcome)
}

// cpuTime is the process's user+system time: the machine the benchmarks
// run on is shared, so wall time says little about the solver.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSolveStats solves deals 1-50 of each variant with the default
// budget and reports the share won and decided, positions and CPU time per
// deal (sshuffle solve klondike --deals A-B measures the same at scale).
// Every win must replay.
//
//	go test -run '^$' -bench SolveStats ./games/klondike/
func BenchmarkSolveStats(b *testing.B) {
	for _, v := range []string{"draw1", "draw3"} {
		b.Run(v, func(b *testing.B) {
			var deals, won, decided, nodes int
			var cpu time.Duration
			for b.Loop() {
				for seed := uint64(1); seed <= 50; seed++ {
					spec := engine.Spec{Game: "klondike", Variant: v, Seed: seed}
					c0 := cpuTime()
					r := Solve(spec, DefaultNodes)
					cpu += cpuTime() - c0
					deals++
					nodes += r.Nodes
					if r.Outcome != engine.Undecided {
						decided++
					}
					if r.Outcome == engine.Solved {
						won++
						replayWins(b, spec, r.Moves)
					}
				}
			}
			b.ReportMetric(100*float64(won)/float64(deals), "%won")
			b.ReportMetric(100*float64(decided)/float64(deals), "%decided")
			b.ReportMetric(float64(nodes)/float64(deals), "positions/deal")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(deals), "cpu-ns/deal")
		})
	}
}

func BenchmarkSolveDraw1(b *testing.B) {
	for i := range b.N {
		Solve(engine.Spec{Game: "klondike", Variant: "draw1", Seed: uint64(i%50 + 1)}, 1_000_000)
	}
}

// upTo is a foundation of su from the Ace up to rank top.
func upTo(su engine.Suit, top int) []engine.Card {
	var out []engine.Card
	for r := 1; r <= top; r++ {
		out = append(out, engine.NewCard(engine.Rank(r), su))
	}
	return out
}

func TestEmptyingWaitsForKing(t *testing.T) {
	// The Q♥ must go onto the K♠ to empty its column, and the K♠ run must
	// then move there to turn up the J♥.
	l := Layout{Variant: "draw3", Stock: cards("KH"),
		Foundations: [4][]engine.Card{upTo(engine.Clubs, 13), upTo(engine.Diamonds, 8),
			upTo(engine.Spades, 12), upTo(engine.Hearts, 10)},
		Columns: [7][]engine.Card{cards("JH KS"), cards("QH"), cards("9D"), cards("TD"),
			cards("JD"), cards("QD"), cards("KD")},
		FaceDown: [7]int{1}}
	sv := &solver{draw: 3}
	s := fromGame(mustLayout(t, l))
	emptied := false
	sv.expand(s, func(m smove, n sstate) {
		if m.kind == mColCol && m.a == 1 {
			emptied = true
			require.Equal(t, uint8(2), n.must, "the emptied column waits for a King")
		}
	})
	require.True(t, emptied)
	g := mustLayout(t, l)
	r := SolveGame(g, 10000)
	require.Equal(t, engine.Solved, r.Outcome)
	for _, a := range r.Moves {
		require.NoError(t, g.Do(a))
	}
	require.True(t, g.Won())
	// No King could come to the emptied column: emptying it is not tried.
	l = Layout{Variant: "draw3", Columns: [7][]engine.Card{cards("KS"), cards("QH"), cards("JH"),
		cards("9D"), cards("TD"), cards("JD"), cards("KD")}}
	s = fromGame(mustLayout(t, l))
	sv.expand(s, func(m smove, n sstate) {
		require.False(t, m.kind == mColCol && m.a == 1, "emptying for no King")
	})
}

// layDownLayout: the 7♥ can come from the stock onto the 8♠ (column 1);
// the 6♦ can go onto the 7♣ and the 6♠ onto the 7♥, each turning up a card.
func layDownLayout() Layout {
	return Layout{Variant: "draw3", Stock: cards("7H QC KH"),
		Columns: [7][]engine.Card{cards("8S"), cards("3D 6D"), cards("7C"), cards("2S 6S"),
			cards("JH"), cards("2H"), cards("4H")},
		FaceDown: [7]int{0, 1, 0, 1}}
}

// After a Draw 3 talon card is laid on a column, the next move has to
// build on it, move it, play from the talon, or bind the move after it
// (a column emptied, a card down from a foundation): any other move could
// as well come first.
func TestLayDownWaits(t *testing.T) {
	sv := &solver{draw: 3}
	s := fromGame(mustLayout(t, layDownLayout()))
	sixOnSeven := smove{kind: mColCol, a: 1, b: 1, to: 2}
	var before []smove
	var laid *sstate
	sv.expand(s, func(m smove, n sstate) {
		before = append(before, m)
		if m.kind == mTalon && m.to == 0 {
			laid = &n
		}
	})
	require.Contains(t, before, sixOnSeven)
	require.NotNil(t, laid, "the 7H can go onto the 8S")
	require.Equal(t, uint8(1), laid.lay)
	var after []smove
	sv.expand(*laid, func(m smove, _ sstate) { after = append(after, m) })
	require.NotContains(t, after, sixOnSeven, "the 6D onto the 7C touches neither the 7H nor the talon")
	require.Contains(t, after, smove{kind: mColCol, a: 3, b: 1, to: 0}, "the 6S builds on the 7H")
	// Deals the rule loses without its exceptions: each must still be won.
	for _, seed := range []uint64{18, 428} {
		spec := engine.Spec{Game: "klondike", Variant: "draw3", Seed: seed}
		r := Solve(spec, DefaultNodes)
		require.Equal(t, engine.Solved, r.Outcome, "deal %d", seed)
		replayWins(t, spec, r.Moves)
	}
}

// Draw 3 deal 568 is lost, but the Draw 3 search alone cannot show it
// within its budget; the Draw 1 search of the same deal can, and Draw 1
// can do all Draw 3 can.
func TestDraw1ProvesDraw3Lost(t *testing.T) {
	spec := engine.Spec{Game: "klondike", Variant: "draw3", Seed: 568}
	g, err := New(spec)
	require.NoError(t, err)
	sv := &solver{draw: 3}
	start := fromGame(g)
	sv.auto(&start, nil)
	out, _, _ := sv.search(start, 50_000)
	require.Equal(t, engine.Undecided, out)
	r := Solve(spec, DefaultNodes)
	require.Equal(t, engine.Impossible, r.Outcome)
	require.Less(t, r.Nodes, 50_000)
}

// A position bound by must or lay has only moves the same position free of
// the rule has, so once the free one is searched the bound one is left out.
func TestBoundPositionDominated(t *testing.T) {
	sv := &solver{draw: 3}
	s := fromGame(mustLayout(t, layDownLayout()))
	layMove := smove{kind: mTalon, a: 2, to: 0}
	var laid sstate
	sv.expand(s, func(m smove, n sstate) {
		if m == layMove {
			laid = n
		}
	})
	require.Equal(t, uint8(1), laid.lay, "the 7H laid on the 8S")
	kids := func(d *dfs) []smove {
		d.kids, d.ord, d.stack = d.kids[:0], d.ord[:0], d.stack[:0]
		k, b, m := sv.keys(&s)
		d.push(&s, k, b, m, m)
		var out []smove
		for _, k := range d.kids {
			out = append(out, k.m)
		}
		return out
	}
	d := newDFS(sv, s)
	require.Contains(t, kids(d), layMove)
	free := laid
	free.lay = 0
	k0, _, _ := sv.keys(&free)
	d.seen.Add(k0)
	require.NotContains(t, kids(d), layMove)
}

// TestSolvePacedPauses: a paced search is Solve's, pausing in stretches,
// and stops when a pause says so.
func TestSolvePacedPauses(t *testing.T) {
	searched := 0
	for _, v := range []string{"draw1", "draw3"} {
		for seed := range uint64(6) {
			spec := engine.Spec{Game: "klondike", Variant: v, Seed: seed}
			pauses := 0
			got, ok := SolvePaced(spec, 100_000, func() bool { pauses++; return true })
			require.True(t, ok)
			want := Solve(spec, 100_000)
			require.Equal(t, want, got, "%s", spec)
			if got.Nodes >= 4*pauseEvery {
				searched++
				require.GreaterOrEqual(t, pauses, got.Nodes/pauseEvery/2, "%s: %d positions", spec, got.Nodes)
				require.LessOrEqual(t, pauses, got.Nodes/pauseEvery+1, "%s: %d positions", spec, got.Nodes)
				pauses = 0
				got, ok = SolvePaced(spec, 100_000, func() bool { pauses++; return pauses < 2 })
				require.False(t, ok, "%s", spec)
				require.Equal(t, engine.Undecided, got.Outcome)
				require.Equal(t, 2, pauses, "stopped at the pause that said so")
			}
		}
	}
	require.Positive(t, searched)
}

// In Draw 1 a talon card that fits its foundation but is not safe goes up
// only in the move that takes the next card of its suit up from a column
// after it (see held); until then it stays free to be laid on a column,
// when something could build on it there.
func TestHeldTalonCardGoesUpWithNext(t *testing.T) {
	// The 5♥ and 6♥ wait in the talon (not safe: the black Fours are not
	// up); the 7♥ lies on a face-down card, the 6♣ takes a red Five.
	l := Layout{Variant: "draw1", Stock: cards("6H 5H"),
		Foundations: [4][]engine.Card{upTo(engine.Clubs, 2), upTo(engine.Diamonds, 4),
			upTo(engine.Spades, 2), upTo(engine.Hearts, 4)},
		Columns:  [7][]engine.Card{cards("9S 7H"), cards("6C")},
		FaceDown: [7]int{1}}
	sv := &solver{draw: 1}
	moves := func(l Layout) (s sstate, up, laid bool) {
		s = fromGame(mustLayout(t, l))
		sv.auto(&s, nil)
		require.Equal(t, uint8(2), s.tn, "neither heart is safe")
		sv.expand(s, func(m smove, n sstate) {
			require.False(t, m.kind == mTalon && m.to == toFound, "a held card up on its own")
			switch {
			case m.kind == mColUp && m.a == 0:
				up = true
				require.Equal(t, uint8(7), n.found[engine.Hearts], "the 5♥ and 6♥ go up before the 7♥")
				require.Equal(t, uint8(0), n.tn)
			case m.kind == mTalon && m.to == 1:
				laid = true
				require.Equal(t, cards("6C 5H"), n.col[1][:n.n[1]])
			}
		})
		return s, up, laid
	}
	s, up, laid := moves(l)
	require.True(t, up, "the 7♥ goes up over the held hearts")
	require.False(t, laid, "nothing could build on the 5♥, nor would the 4♥ come down")
	// The actions of that move replay in the game.
	var p path
	sv.apply(&s, smove{kind: mColUp, a: 0}, &p)
	g := mustLayout(t, l)
	for _, a := range p {
		require.NoError(t, g.Do(a))
	}
	require.Len(t, g.st.piles[PileStock], 0)
	require.Len(t, g.st.piles[PileWaste], 0)
	up7 := 0
	for f := PileFoundation0; f < PileTableau0; f++ {
		up7 += len(g.st.piles[f])
	}
	require.Equal(t, 2+4+2+7, up7)
	// With the 4♠ on a face-down card, the 5♥ is worth laying for it.
	l.Columns[2], l.FaceDown[2] = cards("9D 4S"), 1
	_, up, laid = moves(l)
	require.True(t, up)
	require.True(t, laid, "the 5♥ is laid on the 6♣ from the talon, for the 4♠")

	// The 6♠ moves off the 7♦ onto the 7♥ only to free the 7♦, which goes
	// up at once over the held 5♦ and 6♦: left a column top, twin would
	// move the 6♠ straight back onto it.
	l = Layout{Variant: "draw1", Stock: cards("6D 5D"),
		Foundations: [4][]engine.Card{upTo(engine.Clubs, 2), upTo(engine.Diamonds, 4),
			upTo(engine.Spades, 2), upTo(engine.Hearts, 4)},
		Columns:  [7][]engine.Card{cards("9S 7D 6S"), cards("7H")},
		FaceDown: [7]int{1}}
	s = fromGame(mustLayout(t, l))
	sv.auto(&s, nil)
	freed := false
	sv.expand(s, func(m smove, n sstate) {
		if m == (smove{kind: mColCol, a: 0, b: 2, to: 1}) {
			freed = true
			require.Equal(t, uint8(7), n.found[engine.Diamonds], "the 7♦ goes up with the 5♦ and 6♦")
			require.Equal(t, cards("7H 6S"), n.col[1][:n.n[1]])
		}
	})
	require.True(t, freed, "the 6♠ moves to free the 7♦")
}

// The Draw 1 search of a Draw 3 deal starts where Draw 3's auto left it,
// which plays no talon card: a safe one may still wait there, and is a
// move of its own, not held (see held). Were it not, a start whose other
// moves all lose would be proved lost.
func TestDraw1SearchPlaysSafeTalonCard(t *testing.T) {
	full := func(su engine.Suit) []engine.Card {
		var out []engine.Card
		for r := engine.Ace; r <= engine.King; r++ {
			out = append(out, engine.NewCard(r, su))
		}
		return out
	}
	var spades []engine.Card
	for r := engine.King; r >= engine.Ace; r-- {
		spades = append(spades, engine.NewCard(r, engine.Spades))
	}
	l := Layout{Variant: "draw3", Stock: spades,
		Foundations: [4][]engine.Card{full(engine.Clubs), full(engine.Diamonds), nil, full(engine.Hearts)}}
	start := fromGame(mustLayout(t, l))
	(&solver{draw: 3}).auto(&start, nil)
	require.Equal(t, uint8(13), start.tn, "Draw 3's auto plays no talon card")
	up := false
	(&solver{draw: 1}).expand(start, func(m smove, n sstate) {
		if m.kind == mTalon && m.to == toFound {
			up = true
			require.True(t, n.won(), "the A♠ goes up, and auto plays the rest")
		}
	})
	require.True(t, up, "the A♠ is a move")
}

// A card laid down must be built on next; a build that twin would move
// onto the card's twin leaves it with nothing on it, so it is not tried:
// the build onto the twin comes first, and the card could wait. With no
// other build, the lay-down is not tried either.
func TestBoundBuildNotMovedByTwin(t *testing.T) {
	// The 7♥ can go from the talon onto the 8♠, and the 6♣ onto it, or
	// onto its twin the 7♦, each turning up a card.
	l := Layout{Variant: "draw1", Stock: cards("7H"),
		Columns:  [7][]engine.Card{cards("8S"), cards("KC 7D"), cards("QC 6C")},
		FaceDown: [7]int{0, 1, 1}}
	sv := &solver{draw: 1}
	s := fromGame(mustLayout(t, l))
	sv.auto(&s, nil)
	lay := smove{kind: mTalon, a: 0, to: 0}
	onTwin := false
	sv.expand(s, func(m smove, n sstate) {
		require.NotEqual(t, lay, m, "the 7♥ laid for nothing")
		onTwin = onTwin || m == smove{kind: mColCol, a: 2, b: 1, to: 1}
	})
	require.True(t, onTwin, "the 6♣ goes onto the 7♦")
	laid := s
	sv.apply(&laid, lay, nil)
	require.Equal(t, uint8(1), laid.must)
	sv.expand(laid, func(m smove, n sstate) {
		require.NotEqual(t, uint8(0), m.to, "%+v builds on the 7♥ only for twin to move it off", m)
	})
}

// A column emptied as the only empty one waits for a King; a talon King
// that nothing could build on there would wait for nothing too, so the
// column is not emptied for it.
func TestEmptyingWaitsForUsefulKing(t *testing.T) {
	l := Layout{Variant: "draw1", Stock: cards("KD"),
		Columns: [7][]engine.Card{cards("QH"), cards("KS"), cards("9D"), cards("9H"),
			cards("5C"), cards("5S"), cards("3D")}}
	sv := &solver{draw: 1}
	s := fromGame(mustLayout(t, l))
	sv.auto(&s, nil)
	sv.expand(s, func(m smove, n sstate) {
		require.False(t, m.kind == mColCol && m.a == 0, "the Q♥ empties its column for a K♦ nothing goes on")
	})
	// With the Q♣ on a face-down card, to go on the K♦, it does.
	l.Columns[6], l.FaceDown[6] = cards("3D QC"), 1
	s = fromGame(mustLayout(t, l))
	sv.auto(&s, nil)
	emptied := false
	sv.expand(s, func(m smove, n sstate) {
		emptied = emptied || (m.kind == mColCol && m.a == 0)
	})
	require.True(t, emptied)
}
