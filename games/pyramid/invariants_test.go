package pyramid

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

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

var rules = gametest.Rules[*Game, state]{
	Spec:  spec,
	New:   New,
	State: func(g *Game) state { return g.st },
	Check: func(t testing.TB, g *Game) {
		// Removed cards leave the table; gone counts them.
		gametest.OneDeck(t, g.st.gone, g.st.slots[:], g.st.stock[:g.st.nStock], g.st.waste[:g.st.nWaste], []engine.Card{g.st.turned})
	},
	Legal:     legal,
	Odd:       oddActions,
	Solve:     Solve,
	SolveGame: SolveGame,
}

func TestRandomPlay(t *testing.T) {
	// Removals first half the time so games get somewhere.
	rules.RandomPlay(t, 120, func(rng *engine.RNG, as []engine.Action) engine.Action {
		a := as[rng.Intn(len(as))]
		if rng.Intn(2) == 0 {
			a = as[0]
		}
		return a
	})
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
	rules.HintIgnoresUnseen(t, 60, 4, func(g *Game, rng *engine.RNG) (*Game, bool) {
		if g.st.pass != 1 {
			return nil, false
		}
		h := &Game{spec: g.spec, st: g.st}
		rng.Shuffle(h.st.stock[:h.st.nStock])
		return h, true
	})
}

func TestSolveReplays(t *testing.T) {
	require.Greater(t, rules.SolveReplays(t, 12, 300_000), 2)
}

func FuzzDo(f *testing.F) {
	f.Add(uint64(1), []byte{1, 28, 0, 0, 21, 22, 2, 29, 0, 0, 29, 30})
	f.Add(uint64(5), []byte{2, 255, 3, 7, 7, 7, 9, 0, 0})
	f.Fuzz(rules.Program)
}

func BenchmarkSolve(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Solve(spec(uint64(i%1000+1)), 1000000)
	}
}
