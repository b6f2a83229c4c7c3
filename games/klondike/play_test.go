package klondike

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

// legalMoves lists every legal action, Draw included.
func legalMoves(g *Game) []engine.Action {
	var out []engine.Action
	if len(g.st.piles[PileStock])+len(g.st.piles[PileWaste]) > 0 {
		out = append(out, engine.Action{Kind: engine.Draw})
	}
	for from := PileWaste; from < NumPiles; from++ {
		p := g.st.piles[from]
		lo := g.st.down[from]
		if !isTableau(from) {
			lo = len(p) - 1
		}
		for idx := max(lo, 0); idx < len(p); idx++ {
			for to := PileFoundation0; to < NumPiles; to++ {
				// A cheap filter first: checkMove builds a sentence for
				// every refusal.
				if isFoundation(to) && idx != len(p)-1 {
					continue
				}
				if q := g.st.piles[to]; isTableau(to) && len(q) > 0 && q[len(q)-1].Rank() != p[idx].Rank()+1 {
					continue
				}
				if g.checkMove(from, idx, to) == nil {
					out = append(out, mv(from, idx, to))
				}
			}
		}
	}
	return out
}

func checkCards(t testing.TB, g *Game) {
	t.Helper()
	var n [64]int
	total := 0
	ok := true
	for p := range NumPiles {
		for _, c := range g.st.piles[p] {
			ok = ok && c.Valid()
			n[c&63]++
			total++
		}
		if isTableau(p) && len(g.st.piles[p]) > 0 && g.st.down[p] >= len(g.st.piles[p]) {
			t.Fatalf("column %d ends face down", p)
		}
	}
	for _, c := range engine.Deck() {
		ok = ok && n[c] == 1
	}
	if !ok || total != 52 {
		t.Fatalf("cards not conserved: %v", g.st.piles)
	}
	require.GreaterOrEqual(t, g.Score(), 0)
	require.Equal(t, len(g.History()), g.Moves())
}

func TestRandomPlayInvariants(t *testing.T) {
	games := 800
	if testing.Short() || raceEnabled {
		games = 150
	}
	for seed := range uint64(games) {
		variant := "draw1"
		if seed%2 == 1 {
			variant = "draw3"
		}
		spec := engine.Spec{Game: "klondike", Variant: variant, Seed: seed}
		g, err := New(spec)
		require.NoError(t, err)
		again, _ := New(spec)
		require.True(t, g.st.equal(&again.st), "same seed, same deal")
		rng := engine.NewRNG(seed * 7919)
		for range 120 {
			checkCards(t, g)
			if g.Won() {
				break
			}
			if rng.Intn(8) == 0 && g.Undo() {
				continue
			}
			before, score, moves := g.st.clone(), g.Score(), g.Moves()
			var a engine.Action
			if rng.Intn(6) == 0 {
				a = engine.Action{Kind: engine.Auto, From: rng.Intn(NumPiles), Index: rng.Intn(8)}
			} else {
				ms := legalMoves(g)
				require.Equal(t, g.Stuck(), g.stuckByList(ms), "Stuck agrees with the listed moves")
				a = ms[rng.Intn(len(ms))]
				require.NoError(t, g.Do(a))
			}
			if a.Kind == engine.Auto && g.Do(a) != nil {
				require.True(t, before.equal(&g.st))
				continue
			}
			checkCards(t, g)
			require.Equal(t, moves+1, g.Moves())
			// Undo then redo: the exact earlier state and score.
			last := g.History()[g.Moves()-1]
			after, afterScore := g.st.clone(), g.Score()
			require.True(t, g.Undo())
			require.True(t, before.equal(&g.st))
			require.Equal(t, score, g.Score())
			require.Equal(t, moves, g.Moves())
			require.NoError(t, g.Do(last))
			require.True(t, after.equal(&g.st))
			require.Equal(t, afterScore, g.Score())
		}
		// Replaying History on a fresh deal rebuilds the game.
		r, _ := New(spec)
		for _, a := range g.History() {
			require.NoError(t, r.Do(a))
		}
		require.True(t, r.st.equal(&g.st))
		require.Equal(t, g.Score(), r.Score())
		for g.Undo() {
		}
		require.True(t, g.st.equal(&again.st))
		require.Equal(t, 0, g.Score())
	}
}

// stuckByList is a weaker, independent check: a position with no legal move
// but Draw and no card the stock can bring into play must be stuck, and a
// stuck position can't have a legal foundation move.
func (g *Game) stuckByList(ms []engine.Action) bool {
	if g.Won() {
		return false
	}
	for _, m := range ms {
		if m.Kind == engine.Move && isFoundation(m.To) {
			return false
		}
	}
	if len(ms) <= 1 {
		for _, c := range g.reachable() {
			if g.foundationFor(c) >= 0 || g.fitsSomeColumn(c, -1) {
				return false
			}
		}
		return true
	}
	return g.Stuck()
}

func TestStuck(t *testing.T) {
	// Nothing fits anywhere: K♠ alone could only go to another empty
	// column, which changes nothing.
	base := Layout{
		Stock:    cards("4C 6H QC"),
		Columns:  [7][]engine.Card{cards("KS"), cards("2C 3D 9D")},
		FaceDown: [7]int{0, 2},
	}
	require.True(t, mustLayout(t, base).Stuck())
	l := base
	l.Variant = "draw3"
	require.True(t, mustLayout(t, l).Stuck())

	// 8♠ can go on 9♦ once turned: not stuck in Draw 1. In Draw 3 the
	// order 4♣ 8♠ 6♥ puts 8♠ in the middle of every packet.
	l = base
	l.Stock = cards("4C 8S 6H")
	require.False(t, mustLayout(t, l).Stuck())
	l.Variant = "draw3"
	require.True(t, mustLayout(t, l).Stuck())
	// ...but at the end of a packet it can be reached.
	l.Stock = cards("8S 4C 6H")
	require.False(t, mustLayout(t, l).Stuck())

	// Swapping 7♣ between two red 8s uncovers nothing new: stuck.
	l = Layout{Columns: [7][]engine.Card{cards("8H 7C"), cards("8D")}}
	require.True(t, mustLayout(t, l).Stuck())
	// Unless the card it uncovers can then go up.
	l.Foundations[0] = cards("AH 2H 3H 4H 5H 6H 7H")
	require.False(t, mustLayout(t, l).Stuck())

	// 5♥ can come down from its foundation onto 6♣ and take 4♠ from the
	// waste: not stuck. Without the 4♠ it would be pointless.
	l = Layout{Foundations: [4][]engine.Card{cards("AH 2H 3H 4H 5H")}, Columns: [7][]engine.Card{cards("6C")}, Waste: cards("4S")}
	require.False(t, mustLayout(t, l).Stuck())
	l.Waste = cards("QS")
	require.True(t, mustLayout(t, l).Stuck())

	// Moving a run that turns up a card is progress.
	l = Layout{Columns: [7][]engine.Card{cards("2C 9H 8S"), cards("TC")}, FaceDown: [7]int{1}}
	require.False(t, mustLayout(t, l).Stuck())

	// A fresh deal is rarely stuck, and a won game never is.
	g, _ := New(engine.Spec{Game: "klondike", Seed: 3})
	require.False(t, g.Stuck())
}

// The hint may depend only on what the player has seen: shuffling the
// unseen cards among their places must never change it.
func TestHintUsesOnlySeenCards(t *testing.T) {
	hints := 0
	n := uint64(300)
	if raceEnabled {
		n = 100
	}
	for seed := range n {
		variant := "draw1"
		if seed%3 == 0 {
			variant = "draw3"
		}
		g, _ := New(engine.Spec{Game: "klondike", Variant: variant, Seed: seed})
		rng := engine.NewRNG(seed + 99)
		steps := rng.Intn(80)
		for range steps {
			if a, _, ok := g.Hint(); ok && rng.Intn(3) > 0 {
				require.NoError(t, g.Do(a))
				continue
			}
			ms := legalMoves(g)
			if len(ms) == 0 {
				break
			}
			require.NoError(t, g.Do(ms[rng.Intn(len(ms))]))
		}
		a, why, ok := g.Hint()
		if ok {
			hints++
			require.NotEmpty(t, why)
			require.NoError(t, g.clone().Do(a), "a hint is a legal action: %s", why)
		}
		for range 8 {
			h := g.clone()
			type place struct{ p, i int }
			var places []place
			var vals []engine.Card
			for p := range NumPiles {
				for i, c := range h.st.piles[p] {
					if !h.seen[c] {
						places = append(places, place{p, i})
						vals = append(vals, c)
					}
				}
			}
			rng.Shuffle(vals)
			for k, pl := range places {
				h.st.piles[pl.p][pl.i] = vals[k]
			}
			a2, why2, ok2 := h.Hint()
			require.Equal(t, ok, ok2)
			require.Equal(t, a, a2)
			require.Equal(t, why, why2)
		}
	}
	require.Greater(t, hints, int(n)*2/3)
}

func TestHintExamples(t *testing.T) {
	g := mustLayout(t, Layout{Columns: [7][]engine.Card{cards("2C 3D 7C"), cards("8H")}, FaceDown: [7]int{2}})
	a, why, ok := g.Hint()
	require.True(t, ok)
	require.Equal(t, mv(col(1), 2, col(2)), a)
	require.Equal(t, "Move 7♣ onto 8♥ to turn up a card", why)

	g = mustLayout(t, Layout{Waste: cards("AD"), Columns: [7][]engine.Card{cards("9C"), cards("8H")}})
	a, why, ok = g.Hint()
	require.True(t, ok)
	require.Equal(t, mv(PileWaste, 0, fnd(1)), a)
	require.Equal(t, "Move A♦ from the waste to its foundation", why)

	g = mustLayout(t, Layout{Stock: cards("5C")})
	a, why, ok = g.Hint()
	require.True(t, ok)
	require.Equal(t, engine.Action{Kind: engine.Draw}, a)
	require.Equal(t, "Turn a card from the stock", why)
	// Once every stock card has been seen and none of them can play,
	// there is nothing to suggest.
	require.NoError(t, g.Do(a))
	_, _, ok = g.Hint()
	require.False(t, ok)
}

func (g *Game) clone() *Game {
	c := *g
	c.st = g.st.clone()
	c.undo = append([]snapshot(nil), g.undo...)
	c.hist = append([]engine.Action(nil), g.hist...)
	return &c
}

func FuzzDo(f *testing.F) {
	f.Add(uint64(1), []byte{1, 0, 0, 0, 0, 6, 0, 7, 2, 1, 0, 0})
	f.Add(uint64(42), []byte{0, 12, 6, 9, 3, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2})
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		g, err := New(engine.Spec{Game: "klondike", Variant: []string{"draw1", "draw3"}[seed%2], Seed: seed})
		require.NoError(t, err)
		for len(data) >= 4 {
			a := engine.Action{Kind: engine.ActionKind(data[0] % 5), From: int(int8(data[1])), Index: int(int8(data[2])), To: int(int8(data[3]))}
			data = data[4:]
			if a.Kind == 4 {
				g.Undo()
			} else {
				before := g.st.clone()
				if err := g.Do(a); err != nil {
					require.True(t, before.equal(&g.st))
					require.NotEmpty(t, err.Error())
				}
			}
			checkCards(t, g)
			_ = g.Stuck()
			_, _, _ = g.Hint()
			_ = g.Piles()
		}
	})
}
