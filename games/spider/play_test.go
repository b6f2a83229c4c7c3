package spider

import (
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

var variants = []string{"1suit", "2suit", "4suit"}

// randomAction picks a legal move most of the time, else a deal or junk.
func randomAction(g *Game, r *engine.RNG) engine.Action {
	switch r.Intn(10) {
	case 0:
		return draw
	case 1:
		return engine.Action{Kind: engine.ActionKind(r.Intn(4)), From: r.Intn(22) - 1, Index: r.Intn(30) - 1, To: r.Intn(22) - 1}
	case 2:
		return engine.Action{Kind: engine.Auto, From: PileColumn + r.Intn(numCols), Index: r.Intn(20)}
	}
	var ms []engine.Action
	g.p.legalMoves(func(from, i, to int) { ms = append(ms, mv(from, i, to)) })
	if len(ms) == 0 {
		return draw
	}
	return ms[r.Intn(len(ms))]
}

func TestRandomPlayInvariants(t *testing.T) {
	games := 1500
	if testing.Short() || raceOn {
		games = 150
	}
	for n := 0; n < games; n++ {
		spec := engine.Spec{Game: "spider", Variant: variants[n%3], Seed: uint64(n)}
		g, err := New(spec)
		require.NoError(t, err)
		g2, _ := New(spec)
		require.Equal(t, g.p, g2.p, "same seed, same deal")
		require.Equal(t, g.stock, g2.stock)
		deck := fullDeck(t, spec.Variant)
		r := engine.NewRNG(uint64(n) * 7919)
		for step := 0; step < 150; step++ {
			if r.Intn(8) == 0 && g.Moves() > 0 {
				require.True(t, g.Undo())
				continue
			}
			before := *g
			a := randomAction(g, r)
			if err := g.Do(a); err != nil {
				require.Equal(t, before.p, g.p, "a failed action changes nothing: %v %v", a, err)
				require.Equal(t, before.score, g.score)
				require.NotEmpty(t, err.Error())
				continue
			}
			require.Equal(t, deck, cardCount(g), "cards conserved")
			require.GreaterOrEqual(t, g.Score(), 0)
			require.Equal(t, len(g.History()), g.Moves())
			if step%5 == 0 {
				require.True(t, g.Undo())
				require.Equal(t, before.p, g.p, "undo restores the position")
				require.Equal(t, before.score, g.Score())
				require.Equal(t, before.Moves(), g.Moves())
				require.Equal(t, deck, cardCount(g))
				require.NoError(t, g.Do(a), "the action is legal again after undo")
			}
		}
		replay, _ := New(spec)
		for _, a := range g.History() {
			require.NoError(t, replay.Do(a))
		}
		require.Equal(t, g.p, replay.p, "history replays to the same game")
		require.Equal(t, g.Score(), replay.Score())
		if n%50 == 0 {
			_ = g.Stuck()
			_, _, _ = g.Hint()
		}
	}
}

func TestStuck(t *testing.T) {
	// Nothing fits anywhere and the stock is empty.
	g := layout(t, full, "3C | 5S", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D")
	require.True(t, g.Stuck())
	// The 8 can go back and forth between nines but that turns up nothing.
	g = layout(t, full, "3C | 5S", "9D 8C", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D")
	require.True(t, g.Stuck())
	// A move that turns up a card is progress.
	g = layout(t, full, "3C | 8S", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D")
	require.False(t, g.Stuck())
	// Rows left and columns to fill: a deal will come.
	g = layout(t, []string{"2C 2C 2C 2C 2C 2C 2C 2C 2C 2C"}, "3C | 5S", "9D 8C", "9D", "9D", "9D", "9D", "9D", "9D", "9D", "9D")
	require.False(t, g.Stuck())
	// Rows left but fewer than ten cards on the table: no deal can ever
	// come, and with nothing to turn up the game is stuck.
	g = layout(t, []string{"2C 2C 2C 2C 2C 2C 2C 2C 2C 2C"}, "5S", "9D", "9D")
	require.True(t, g.Stuck())
	g, _ = New(engine.Spec{Game: "spider", Seed: 3})
	require.False(t, g.Stuck())
}

// FuzzDo feeds arbitrary actions: no panic, cards conserved, a failed
// action changes nothing.
func FuzzDo(f *testing.F) {
	f.Add(uint64(1), []byte{0, 9, 5, 10, 1, 0, 0, 0})
	f.Add(uint64(7), []byte{2, 12, 4, 0, 0, 200, 255, 3})
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		spec := engine.Spec{Game: "spider", Variant: variants[seed%3], Seed: seed}
		g, err := New(spec)
		require.NoError(t, err)
		deck := fullDeck(t, spec.Variant)
		for len(data) >= 4 {
			a := engine.Action{Kind: engine.ActionKind(data[0] % 5), From: int(int8(data[1])), Index: int(int8(data[2])), To: int(int8(data[3]))}
			data = data[4:]
			if a.Kind == 4 {
				g.Undo()
				continue
			}
			before := *g
			if err := g.Do(a); err != nil {
				require.Equal(t, before.p, g.p)
				continue
			}
			require.Equal(t, deck, cardCount(g))
		}
		_ = g.Stuck()
		_, _, _ = g.Hint()
	})
}

// TestCloneOwnsItsUndo: a clone shares no undo memory with the game, so play
// on the clone after an undo there cannot rewrite the game's history.
func TestCloneOwnsItsUndo(t *testing.T) {
	g, _ := New(engine.Spec{Game: "spider", Variant: "1suit", Seed: 1})
	require.NoError(t, g.Do(draw))
	one := g.p
	require.NoError(t, g.Do(draw))
	h := g.Clone()
	require.True(t, h.Undo())
	a, _, ok := h.Hint()
	require.True(t, ok)
	require.NotEqual(t, draw, a)
	require.NoError(t, h.Do(a))
	require.Equal(t, []engine.Action{draw, draw}, g.History())
	require.True(t, g.Undo())
	require.Equal(t, one, g.p)
}
