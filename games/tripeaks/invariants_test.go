package tripeaks

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// allCards checks that the 52 cards are each in exactly one place.
func allCards(t testing.TB, g *Game) {
	t.Helper()
	var seen [64]int
	s := &g.st
	for _, c := range s.slots {
		if c != engine.NoCard {
			seen[c]++
		}
	}
	for _, c := range s.stock[:s.nStock] {
		seen[c]++
	}
	for _, c := range s.waste[:s.nWaste] {
		seen[c]++
	}
	for _, c := range engine.Deck() {
		if seen[c] != 1 {
			t.Fatalf("card %v is in %d places", c, seen[c])
		}
	}
}

// legal lists every action Do accepts now.
func legal(g *Game) []engine.Action {
	var as []engine.Action
	for i := range NumSlots {
		if g.st.playable(i) == nil && !g.Won() {
			as = append(as, play(i))
		}
	}
	if g.st.checkDraw() == nil && !g.Won() {
		as = append(as, draw)
	}
	return as
}

// oddActions are inputs a client could send that must get a sentence.
var oddActions = []engine.Action{
	{Kind: engine.Move, From: -1, To: WastePile},
	{Kind: engine.Move, From: 99, To: WastePile},
	{Kind: engine.Move, From: 20, To: 3},
	{Kind: engine.Move, From: 20, To: -7},
	{Kind: engine.Move, From: StockPile, To: WastePile},
	{Kind: engine.Move, From: WastePile, To: WastePile},
	{Kind: engine.Auto, From: WastePile},
	{Kind: engine.Auto, From: 1 << 40},
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
		for step := 0; step < 80; step++ {
			allCards(t, g)
			for _, a := range oddActions {
				before := g.st
				if g.Do(a) == nil || g.st != before {
					t.Fatalf("odd action %+v accepted or changed the game", a)
				}
			}
			as := legal(g)
			require.Equal(t, len(as) == 0, g.Won() || g.Stuck(), "no move iff over")
			if len(as) == 0 {
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
			before := g.st
			a := as[rng.Intn(len(as))]
			require.NoError(t, g.Do(a))
			require.Equal(t, len(g.hist), g.Moves())
			require.True(t, g.Undo())
			if g.st != before {
				t.Fatal("undo did not restore the exact state and score")
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

// TestHintSeesOnlySeenCards shuffles every unseen card (face-down slots and
// the stock) and checks that the hint does not change.
func TestHintSeesOnlySeenCards(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		g, _ := New(spec(seed))
		rng := engine.NewRNG(seed * 7)
		for step := 0; step < 40; step++ {
			a, why, ok := g.Hint()
			for k := 0; k < 5; k++ {
				h := &Game{spec: g.spec, st: g.st}
				var places []*engine.Card
				for i := range NumSlots {
					if h.st.slots[i] != engine.NoCard && !h.st.faceUp(i) {
						places = append(places, &h.st.slots[i])
					}
				}
				for i := 0; i < h.st.nStock; i++ {
					places = append(places, &h.st.stock[i])
				}
				cs := make([]engine.Card, len(places))
				for i, p := range places {
					cs[i] = *p
				}
				rng.Shuffle(cs)
				for i, p := range places {
					*p = cs[i]
				}
				a2, why2, ok2 := h.Hint()
				require.Equal(t, ok, ok2)
				require.Equal(t, a, a2)
				require.Equal(t, why, why2)
			}
			if ok {
				require.NoError(t, g.Do(a), why)
				continue
			}
			break
		}
	}
}

func TestSolveReplays(t *testing.T) {
	won := 0
	for seed := uint64(1); seed <= 60; seed++ {
		r := Solve(spec(seed), 200000)
		if r.Outcome != engine.Solved {
			continue
		}
		won++
		g, _ := New(spec(seed))
		for _, a := range r.Moves {
			require.NoError(t, g.Do(a))
		}
		require.True(t, g.Won(), "seed %d", seed)
	}
	require.Greater(t, won, 30)
	// Mid-game: solving from a position continues it.
	g, _ := New(spec(3))
	r := Solve(spec(3), 200000)
	if r.Outcome == engine.Solved {
		for _, a := range r.Moves[:len(r.Moves)/2] {
			require.NoError(t, g.Do(a))
		}
		r2 := SolveGame(g, 200000)
		require.Equal(t, engine.Solved, r2.Outcome)
		for _, a := range r2.Moves {
			require.NoError(t, g.Do(a))
		}
		require.True(t, g.Won())
	}
}

func TestText(t *testing.T) {
	s, err := Text(spec(1))
	require.NoError(t, err)
	g, _ := New(spec(1))
	for _, c := range g.st.slots {
		require.Contains(t, s, c.ASCII())
	}
	require.Contains(t, s, "Waste: "+g.st.wasteTop().ASCII())
	t.Log("\n" + s)
}

func FuzzDo(f *testing.F) {
	f.Add(uint64(1), []byte{0, 20, 29, 1, 28, 0, 2, 18, 0})
	f.Add(uint64(9), []byte{2, 255, 3, 7, 7, 7})
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
