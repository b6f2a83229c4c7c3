package freecell

import (
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

func TestAutoFoundation(t *testing.T) {
	on := DefaultSettings()
	// Aces and twos always go up; 3♥ waits while 2♣ (which could land on
	// it) is in play; 3♠ goes once both red twos are up.
	g := layout(t, on, []string{"KS 3H", "KD 2C 9S", "KC 3S", "QH 2H", "QC AH", "QD 2D"}, nil, [4]int{1, 1, 0, 2})
	g.b.autoAll((*board).safeSimple)
	require.Equal(t, [4]uint8{1, 2, 2, 3}, g.b.found, "A♥ 2♥ 2♦ go, then 3♠; 3♥ waits for 2♣")
	require.Equal(t, engine.MustCards("KS 3H"), g.b.col(0))
	// Moves that free a safe card take it up in the same undo step.
	g = layout(t, on, []string{"KS 2H 5C", "6D", "JD"}, nil, [4]int{0, 0, 1, 0})
	require.NoError(t, g.Do(mv(colPile(0), 2, colPile(1))))
	require.Equal(t, uint8(2), g.b.found[engine.Hearts])
	require.Equal(t, 1, g.Moves())
	require.True(t, g.Undo())
	require.Equal(t, uint8(1), g.b.found[engine.Hearts])
	require.Equal(t, engine.MustCards("KS 2H 5C"), g.b.col(0))
	// The deal itself: deal 1 has nothing safe at the start? Its bottom
	// row holds no Ace, so nothing moves.
	g, err := New(spec(1))
	require.NoError(t, err)
	require.Equal(t, 0, g.b.foundCount())
	// Off: nothing moves by itself.
	g = layout(t, manual(), []string{"KS 2H 5C", "6D", "JD"}, nil, [4]int{0, 0, 1, 0})
	require.NoError(t, g.Do(mv(colPile(0), 2, colPile(1))))
	require.Equal(t, uint8(1), g.b.found[engine.Hearts])
}

func TestFoundationReturn(t *testing.T) {
	set := Settings{FoundationReturn: true}
	g := layout(t, set, []string{"KS 6C", "", "KD"}, nil, [4]int{0, 0, 5, 0})
	require.NoError(t, g.Do(mv(firstFound+2, 4, colPile(0))), "5♥ comes back onto 6♣")
	require.Equal(t, uint8(4), g.b.found[engine.Hearts])
	require.True(t, g.Undo())
	require.EqualError(t, g.Do(mv(firstFound+2, 4, cellPile(0))), "A foundation card can only come back to a column")
	require.EqualError(t, g.Do(mv(firstFound+2, 3, colPile(0))), "Only the top card of a foundation can come back")
	require.EqualError(t, g.Do(mv(firstFound+2, 4, colPile(2))), "5♥ can't go on K♦: only a Queen can")
	require.NoError(t, g.Do(mv(firstFound+2, 4, colPile(1))), "an empty column takes it")
	require.EqualError(t, g.Do(mv(firstFound, 0, colPile(1))), "The clubs foundation is empty")
}

func TestAutoAction(t *testing.T) {
	auto := func(from, index int) engine.Action {
		return engine.Action{Kind: engine.Auto, From: from, Index: index}
	}
	// To the foundation first.
	g := layout(t, manual(), []string{"KS 2H", "3C", ""}, nil, [4]int{0, 0, 1, 0})
	require.NoError(t, g.Do(auto(colPile(0), 1)))
	require.Equal(t, uint8(2), g.b.found[engine.Hearts])
	// Else a column it fits, before an empty column.
	g = layout(t, manual(), []string{"KS 2H", "3C", ""}, nil, [4]int{})
	require.NoError(t, g.Do(auto(colPile(0), 1)))
	require.Equal(t, engine.MustCards("3C 2H"), g.b.col(1))
	// Else an empty column (a run goes whole).
	g = layout(t, manual(), []string{"KS 9H 8C", "3C", "", "5D"}, nil, [4]int{})
	require.NoError(t, g.Do(auto(colPile(0), 1)))
	require.Equal(t, engine.MustCards("9H 8C"), g.b.col(2))
	// Else a free cell.
	g = layout(t, manual(), []string{"KS 9H", "3C", "5D", "6D", "7D", "8D", "TD", "JD"}, nil, [4]int{})
	require.NoError(t, g.Do(auto(colPile(0), 1)))
	require.Equal(t, engine.MustCards("9H")[0], g.b.cells[0])
	// Nowhere.
	g = layout(t, manual(), []string{"KS 9H", "3C", "5D", "6D", "7D", "8D", "TD", "JD"},
		[]string{"2C", "2D", "2H", "2S"}, [4]int{})
	require.Error(t, g.Do(auto(colPile(0), 1)))
	require.Error(t, g.Do(auto(colPile(0), 0)))
	require.Error(t, g.Do(auto(99, 0)))
}

func TestStuck(t *testing.T) {
	g := layout(t, manual(), []string{"KS 9H", "3C", "5D", "6D", "7D", "8D", "TD", "JD"},
		[]string{"2C", "2S", "KH", "KC"}, [4]int{})
	require.True(t, g.Stuck())
	g.b.cells[3] = engine.NoCard
	require.False(t, g.Stuck())
	g.b.cells[3] = engine.MustCards("KC")[0]
	g.b.found[engine.Diamonds] = 4
	require.False(t, g.Stuck(), "5♦ can go up")
	g, err := New(spec(1))
	require.NoError(t, err)
	require.False(t, g.Stuck())
}

func TestOddInput(t *testing.T) {
	g, err := New(spec(5))
	require.NoError(t, err)
	before := g.b
	for _, a := range []engine.Action{
		{Kind: engine.Draw},
		{Kind: 9},
		{Kind: engine.Move, From: -1},
		{Kind: engine.Move, From: 16},
		{Kind: engine.Move, From: colPile(0), Index: 99, To: 0},
		{Kind: engine.Move, From: colPile(0), Index: -1, To: 0},
		{Kind: engine.Move, From: colPile(0), Index: 6, To: 99},
		{Kind: engine.Move, From: colPile(0), Index: 6, To: colPile(0)},
		{Kind: engine.Move, From: 0, Index: 0, To: colPile(0)},
		{Kind: engine.Move, From: firstFound, Index: 0, To: colPile(0)},
		{Kind: engine.Auto, From: 0},
		{Kind: engine.Auto, From: -5},
		{Kind: engine.Auto, From: firstFound},
	} {
		err := g.Do(a)
		require.Error(t, err, "%+v", a)
		require.NotEmpty(t, err.Error())
		require.Equal(t, before, g.b)
	}
	require.False(t, g.Undo())
}

// randomAction picks a plausible action: mostly legal-looking ones.
func randomAction(r *engine.RNG, g *Game) engine.Action {
	kind := engine.Move
	if r.Intn(6) == 0 {
		kind = engine.Auto
	}
	from := r.Intn(numPiles)
	idx := 0
	if from >= firstCol {
		n := int(g.b.n[from-firstCol])
		idx = n - 1 - r.Intn(3)
	}
	return engine.Action{Kind: kind, From: from, Index: idx, To: r.Intn(numPiles)}
}

func TestRandomPlayInvariants(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 200
	}
	for seed := 1; seed <= games; seed++ {
		set := Settings{AutoFoundation: seed%3 != 0, FoundationReturn: seed%4 == 0}
		g, err := NewWithSettings(spec(uint64(seed)), set)
		require.NoError(t, err)
		r := engine.NewRNG(uint64(seed))
		var states []board
		for step := 0; step < 300; step++ {
			if r.Intn(10) == 0 && len(states) > 0 {
				require.True(t, g.Undo())
				if states[len(states)-1] != g.b {
					t.Fatalf("deal %d: undo did not restore the board", seed)
				}
				states = states[:len(states)-1]
				require.Equal(t, len(states), g.Moves())
				continue
			}
			before := g.b
			if err := g.Do(randomAction(r, g)); err != nil {
				if before != g.b {
					t.Fatalf("deal %d: a rejected move changed the board", seed)
				}
				continue
			}
			states = append(states, before)
			requireAllCards(t, &g.b)
			require.Equal(t, 0, g.Score())
		}
		// History rebuilds the game.
		re, err := NewWithSettings(spec(uint64(seed)), set)
		require.NoError(t, err)
		for _, a := range g.History() {
			require.NoError(t, re.Do(a))
		}
		require.Equal(t, g.b, re.b)
		require.Equal(t, g.Moves(), re.Moves())
		// Same seed, same deal.
		again, _ := NewWithSettings(spec(uint64(seed)), set)
		first, _ := NewWithSettings(spec(uint64(seed)), set)
		require.Equal(t, first.Piles(), again.Piles())
	}
}

func TestPiles(t *testing.T) {
	g, err := New(spec(1))
	require.NoError(t, err)
	ps := g.Piles()
	require.Len(t, ps, 16)
	for i := range 4 {
		require.Equal(t, engine.Cell, ps[i].Kind)
		require.Equal(t, 2*i, ps[i].X)
		require.Equal(t, engine.Foundation, ps[4+i].Kind)
		require.Equal(t, 8+2*i, ps[4+i].X)
	}
	for i := range 8 {
		p := ps[8+i]
		require.Equal(t, engine.Tableau, p.Kind)
		require.Equal(t, engine.FanDown, p.Fan)
		require.Equal(t, 2*i, p.X)
		require.Equal(t, 2, p.Y)
	}
	require.Equal(t, engine.MustCards("JD KD 2S 4C 3S 6D 6S"), ps[8].Cards)
}

func FuzzDo(f *testing.F) {
	f.Add(uint64(1), []byte{0, 15, 6, 0, 1, 8, 6, 0})
	f.Add(uint64(617), []byte{2, 9, 0, 3, 0, 14, 5, 12})
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		seed = seed%MaxDeal + 1
		set := Settings{AutoFoundation: seed%2 == 0, FoundationReturn: seed%3 == 0}
		g, err := NewWithSettings(spec(seed), set)
		require.NoError(t, err)
		for len(data) >= 4 {
			a := engine.Action{Kind: engine.ActionKind(data[0] % 4), From: int(int8(data[1])), Index: int(int8(data[2])), To: int(int8(data[3]))}
			data = data[4:]
			if a.Kind == 3 {
				g.Undo()
				continue
			}
			before := g.b
			if err := g.Do(a); err != nil {
				require.Equal(t, before, g.b)
				require.NotEmpty(t, err.Error())
			}
			requireAllCards(t, &g.b)
			g.Stuck()
			g.Piles()
		}
	})
}
