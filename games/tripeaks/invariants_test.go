package tripeaks

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

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

var rules = gametest.Rules[*Game, state]{
	Spec:  spec,
	New:   New,
	State: func(g *Game) state { return g.st },
	Check: func(t testing.TB, g *Game) {
		// Played cards stay on the waste, so none is ever gone.
		gametest.OneDeck(t, 0, g.st.slots[:], g.st.stock[:g.st.nStock], g.st.waste[:g.st.nWaste])
	},
	Legal:     legal,
	Odd:       oddActions,
	Solve:     Solve,
	SolveGame: SolveGame,
	// Stuck needs the stock gone, and then a legal action is a play.
	NothingLegalWhenOver: true,
}

func TestRandomPlay(t *testing.T) { rules.RandomPlay(t, 80, nil) }

// TestHintSeesOnlySeenCards shuffles every unseen card (face-down slots and
// the stock) and checks that the hint does not change.
func TestHintSeesOnlySeenCards(t *testing.T) {
	rules.HintIgnoresUnseen(t, 40, 5, func(g *Game, rng *engine.RNG) (*Game, bool) {
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
		return h, true
	})
}

func TestSolveReplays(t *testing.T) {
	require.Greater(t, rules.SolveReplays(t, 60, 200_000), 30)
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
	f.Fuzz(rules.Program)
}

func BenchmarkSolve(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Solve(spec(uint64(i%1000+1)), 1000000)
	}
}
