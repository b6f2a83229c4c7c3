package pyramid

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// allCards checks that the 52 cards are each in exactly one place, the
// removed ones counted by gone.
func allCards(t testing.TB, g *Game) {
	t.Helper()
	var seen [64]int
	s := &g.st
	n := 0
	add := func(c engine.Card) {
		if c != engine.NoCard {
			seen[c]++
			n++
		}
	}
	for _, c := range s.slots {
		add(c)
	}
	for _, c := range s.stock[:s.nStock] {
		add(c)
	}
	for _, c := range s.waste[:s.nWaste] {
		add(c)
	}
	add(s.turned)
	if n+s.gone != 52 {
		t.Fatalf("%d cards in play and %d gone", n, s.gone)
	}
	for _, c := range seen {
		if c > 1 {
			t.Fatal("a card is in two places")
		}
	}
}

// legal lists every action Do accepts now (pairs once each way round).
func legal(g *Game) []engine.Action {
	if g.Won() {
		return nil
	}
	var as []engine.Action
	ps := g.st.usable()
	for k, a := range ps {
		if g.st.pair(a, a) == nil {
			as = append(as, auto(a))
		}
		for _, b := range ps[k+1:] {
			if g.st.pair(a, b) == nil {
				as = append(as, pair(a, b))
			}
		}
	}
	if g.st.checkDraw() == nil {
		as = append(as, draw)
	}
	return as
}

var oddActions = []engine.Action{
	{Kind: engine.Move, From: -1, To: 3},
	{Kind: engine.Move, From: 99, To: 22},
	{Kind: engine.Move, From: 0, To: 1},
	{Kind: engine.Move, From: StockPile, To: StockPile},
	{Kind: engine.Move, From: 22, To: -5},
	{Kind: engine.Auto, From: 1 << 40},
	{Kind: engine.Auto, From: -3},
	{Kind: 77, From: 20},
}

func TestRandomPlay(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 200
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		g, err := New(spec(seed))
		require.NoError(t, err)
		again, _ := New(spec(seed))
		require.Equal(t, g.st, again.st, "same seed, same deal")
		rng := engine.NewRNG(seed)
		for step := 0; step < 120; step++ {
			allCards(t, g)
			for _, a := range oddActions {
				before := g.st
				if g.Do(a) == nil || g.st != before {
					t.Fatalf("odd action %+v accepted or changed the game", a)
				}
			}
			as := legal(g)
			if len(as) == 0 {
				require.True(t, g.Won() || g.Stuck())
				break
			}
			if rng.Intn(6) == 0 && len(g.undo) > 0 {
				prev := g.undo[len(g.undo)-1]
				require.True(t, g.Undo())
				if g.st != prev {
					t.Fatal("undo did not restore the state")
				}
				continue
			}
			// Removals first half the time so games get somewhere.
			a := as[rng.Intn(len(as))]
			if rng.Intn(2) == 0 {
				a = as[0]
			}
			before := g.st
			require.NoError(t, g.Do(a))
			require.Equal(t, len(g.hist), g.Moves())
			require.True(t, g.Undo())
			if g.st != before {
				t.Fatal("undo did not restore the exact state")
			}
			require.NoError(t, g.Do(a))
		}
		replay, _ := New(spec(seed))
		for _, a := range g.History() {
			require.NoError(t, replay.Do(a))
		}
		require.Equal(t, g.st, replay.st, "history replays to the same game")
		require.Equal(t, g.Piles(), replay.Piles())
	}
}

// TestStuckMeansNoRemoval checks Stuck against brute force: when Stuck, no
// sequence of turns ever offers a removal; when the game has a removal now,
// it is not stuck.
func TestStuckMeansNoRemoval(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		g, _ := New(spec(seed))
		for step := 0; step < 200 && !g.Won(); step++ {
			if g.Stuck() {
				s := g.st
				for {
					require.False(t, s.canRemove())
					if s.checkDraw() != nil {
						break
					}
					s.draw()
				}
				break
			}
			a, _, ok := g.Hint()
			require.True(t, ok, "not stuck, so the hint finds something")
			require.NoError(t, g.Do(a))
		}
	}
}

// TestHintSeesOnlySeenCards shuffles the unseen stock (first pass) and
// checks that the hint does not change.
func TestHintSeesOnlySeenCards(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		g, _ := New(spec(seed))
		rng := engine.NewRNG(seed * 7)
		for step := 0; step < 60; step++ {
			a, why, ok := g.Hint()
			if g.st.pass == 1 {
				for k := 0; k < 4; k++ {
					h := &Game{spec: g.spec, st: g.st}
					rng.Shuffle(h.st.stock[:h.st.nStock])
					a2, why2, ok2 := h.Hint()
					require.Equal(t, ok, ok2)
					require.Equal(t, a, a2)
					require.Equal(t, why, why2)
				}
			}
			if !ok {
				break
			}
			require.NoError(t, g.Do(a), why)
		}
	}
}

func TestSolveReplays(t *testing.T) {
	won := 0
	for seed := uint64(1); seed <= 12; seed++ {
		r := Solve(spec(seed), 300000)
		if r.Outcome != engine.Solved {
			continue
		}
		won++
		g, _ := New(spec(seed))
		for _, a := range r.Moves {
			require.NoError(t, g.Do(a))
		}
		require.True(t, g.Won(), "seed %d", seed)
		// Solving from the middle of the line continues it.
		h, _ := New(spec(seed))
		for _, a := range r.Moves[:len(r.Moves)/2] {
			require.NoError(t, h.Do(a))
		}
		r2 := SolveGame(h, 300000)
		require.Equal(t, engine.Solved, r2.Outcome)
		for _, a := range r2.Moves {
			require.NoError(t, h.Do(a))
		}
		require.True(t, h.Won())
	}
	require.Greater(t, won, 2)
}

func FuzzDo(f *testing.F) {
	f.Add(uint64(1), []byte{1, 28, 0, 0, 21, 22, 2, 29, 0, 0, 29, 30})
	f.Add(uint64(5), []byte{2, 255, 3, 7, 7, 7, 9, 0, 0})
	f.Fuzz(func(t *testing.T, seed uint64, prog []byte) {
		g, err := New(spec(seed))
		require.NoError(t, err)
		for i := 0; i+2 < len(prog); i += 3 {
			if prog[i] == 9 {
				g.Undo()
				continue
			}
			a := engine.Action{Kind: engine.ActionKind(prog[i] % 4), From: int(int8(prog[i+1])), To: int(int8(prog[i+2]))}
			before := g.st
			if err := g.Do(a); err != nil {
				require.Equal(t, before, g.st)
				require.NotEmpty(t, err.Error())
			}
			allCards(t, g)
			g.Piles()
			g.Hint()
			g.Stuck()
		}
	})
}

func BenchmarkSolve(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Solve(spec(uint64(i%1000+1)), 1000000)
	}
}
