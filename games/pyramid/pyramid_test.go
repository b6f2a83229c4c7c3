package pyramid

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

func spec(seed uint64) engine.Spec { return engine.Spec{Game: "pyramid", Seed: seed} }

// arrange builds a deal with the given pyramid cards and stock (in the order
// it will be turned); every other place gets the unused cards in deck order.
func arrange(t testing.TB, slots map[int]string, stock string) *Game {
	t.Helper()
	return newFromCards(spec(0), gametest.Arrange(t, slots, stock))
}

func pair(a, b int) engine.Action { return engine.Action{Kind: engine.Move, From: a, To: b} }
func auto(a int) engine.Action    { return engine.Action{Kind: engine.Auto, From: a} }

var draw = engine.Action{Kind: engine.Draw, From: StockPile}

func TestLayout(t *testing.T) {
	// "Deal 28 cards face up in a pyramid of seven rows: one card on top,
	// then two, and so on to seven at the bottom."
	require.Equal(t, []int{1, 2}, cover[0])
	require.Equal(t, []int{3, 4}, cover[1])
	require.Equal(t, []int{4, 5}, cover[2])
	require.Equal(t, []int{21, 22}, cover[15])
	require.Equal(t, []int{26, 27}, cover[20])
	g, err := New(spec(1))
	require.NoError(t, err)
	ps := g.Piles()
	require.Len(t, ps, 31)
	require.Equal(t, 6, ps[0].X)
	require.Equal(t, 0, ps[0].Y)
	require.Equal(t, 5, ps[1].X)
	require.Equal(t, 7, ps[2].X)
	require.Equal(t, 0, ps[21].X)
	require.Equal(t, 12, ps[27].X)
	require.Equal(t, 6, ps[27].Y)
	for i := range NumSlots {
		// "The bottom row starts free."
		require.Zero(t, ps[i].FaceDown)
		require.Equal(t, i < 21, ps[i].Blocked, "slot %d", i)
	}
	require.Equal(t, 24, ps[StockPile].FaceDown)
	require.Equal(t, "24 r2", ps[StockPile].Label)
	require.Empty(t, ps[TurnedPile].Cards)
	require.Empty(t, ps[WastePile].Cards)
	require.Equal(t, 0, g.Score())
}

func TestBadSpec(t *testing.T) {
	_, err := New(engine.Spec{Game: "tripeaks"})
	require.Error(t, err)
	_, err = New(engine.Spec{Game: "pyramid", Variant: "relaxed"})
	require.Error(t, err)
	_, err = Text(engine.Spec{Game: "spider"})
	require.Error(t, err)
}

func TestPairsTable(t *testing.T) {
	// "Remove two free cards whose values add up to 13. An ace counts 1, a
	// jack 11, a queen 12." The table: A-Q, 2-J, 3-10, 4-9, 5-8, 6-7,
	// "King (13): Nothing: it goes on its own".
	cases := []struct {
		a, b string
		err  string
	}{
		{"AC", "QD", ""},
		{"2C", "JD", ""},
		{"3C", "10D", ""},
		{"4C", "9D", ""},
		{"5C", "8D", ""},
		{"6C", "7D", ""},
		{"7C", "7D", "7♣ and 7♦ add up to 14, not 13."},
		{"AC", "KD", "K♦ counts 13 by itself: it comes off alone."},
		{"QC", "2D", "Q♣ and 2♦ add up to 14, not 13."},
		{"JC", "3D", "J♣ and 3♦ add up to 14, not 13."},
		{"5C", "7D", "5♣ and 7♦ add up to 12, not 13."},
	}
	for _, c := range cases {
		t.Run(c.a+"_"+c.b, func(t *testing.T) {
			g := arrange(t, map[int]string{23: c.a, 26: c.b}, "")
			err := g.Do(pair(23, 26))
			if c.err == "" {
				require.NoError(t, err)
				require.Equal(t, engine.NoCard, g.st.slots[23])
				require.Equal(t, engine.NoCard, g.st.slots[26])
				require.Equal(t, 1, g.Moves())
			} else {
				require.EqualError(t, err, c.err)
				require.Equal(t, 0, g.Moves())
			}
		})
	}
}

func TestKingAlone(t *testing.T) {
	// "A king counts 13 by itself, so a free king comes off alone."
	g := arrange(t, map[int]string{24: "KH", 10: "KS"}, "")
	require.NoError(t, g.Do(auto(24)))
	require.Equal(t, engine.NoCard, g.st.slots[24])
	require.EqualError(t, g.Do(auto(10)), "K♠ isn't free: both cards over it must go first.")
	require.EqualError(t, g.Do(pair(22, 22)), "Pick two different cards.")
	g2 := arrange(t, map[int]string{24: "KH"}, "")
	require.NoError(t, g2.Do(pair(24, 24)), "a King picked twice comes off too")
}

func TestFree(t *testing.T) {
	// "A card is free once both cards lying over it are gone."
	g := arrange(t, map[int]string{15: "6C", 21: "5C", 22: "8D", 23: "7D", 24: "2S"}, "")
	require.EqualError(t, g.Do(pair(15, 23)), "6♣ isn't free: both cards over it must go first.")
	require.NoError(t, g.Do(pair(21, 22)))
	require.False(t, g.Piles()[15].Blocked)
	require.NoError(t, g.Do(pair(15, 23)))
	require.EqualError(t, g.Do(pair(15, 24)), "That place is empty.")
}

func TestTurnedAndWaste(t *testing.T) {
	// "Turn stock cards one at a time. The card you just turned and the top
	// card of the waste pile can pair with each other or with any free
	// pyramid card. A turned card you don't use goes on the waste pile
	// when you turn the next one."
	g := arrange(t, map[int]string{21: "9C", 22: "QC"}, "4D 8S 5H AH KD 2C")
	require.EqualError(t, g.Do(pair(21, TurnedPile)), "No card is turned up.")
	require.EqualError(t, g.Do(pair(21, StockPile)), "Stock cards can't be used until you turn them.")
	require.NoError(t, g.Do(draw))
	require.Equal(t, "4D", g.Piles()[TurnedPile].Top().ASCII())
	require.NoError(t, g.Do(draw))
	// The 4♦ went on the waste: the turned 8♠ and the waste 4♦ both play.
	require.Equal(t, "8S", g.Piles()[TurnedPile].Top().ASCII())
	require.Equal(t, "4D", g.Piles()[WastePile].Top().ASCII())
	require.NoError(t, g.Do(pair(WastePile, 21)), "waste top with a pyramid card")
	require.Empty(t, g.Piles()[WastePile].Cards)
	require.NoError(t, g.Do(draw))
	// 5♥ turned, 8♠ on the waste: they pair with each other.
	require.NoError(t, g.Do(pair(TurnedPile, WastePile)))
	require.NoError(t, g.Do(draw))
	require.NoError(t, g.Do(pair(22, TurnedPile)), "turned card with a pyramid card")
	require.NoError(t, g.Do(draw))
	require.NoError(t, g.Do(auto(TurnedPile)), "a turned King comes off alone")
	require.NoError(t, g.Do(draw))
	require.Equal(t, "2C", g.Piles()[TurnedPile].Top().ASCII())
	require.Equal(t, 7, g.st.gone)
}

func TestThreePasses(t *testing.T) {
	// "When the stock runs out, turn the waste pile over and go through it
	// again. We allow 3 passes in all, as BVS Solitaire does (two
	// redeals)." The second pass turns the cards in the same order.
	g := arrange(t, map[int]string{}, "")
	var first []engine.Card
	for pass := 1; pass <= 3; pass++ {
		require.Equal(t, pass, g.st.pass)
		require.Equal(t, "24 r"+string(rune('0'+3-pass)), g.Piles()[StockPile].Label)
		var order []engine.Card
		for range 24 {
			require.NoError(t, g.Do(draw))
			order = append(order, g.st.turned)
		}
		if first == nil {
			first = order
		}
		require.Equal(t, first, order)
		require.Equal(t, 23, g.st.nWaste)
		if pass < 3 {
			require.NoError(t, g.Do(draw), "redeal")
			require.Equal(t, 24, g.st.nStock)
			require.Zero(t, g.st.nWaste)
			require.Equal(t, engine.NoCard, g.st.turned)
		}
	}
	require.EqualError(t, g.Do(draw), "The stock is empty and both redeals are used: 3 passes in all.")
}

func TestAutoPartner(t *testing.T) {
	// Our call for a double click: a King comes off; a card with exactly
	// one partner in play pairs with it; with two, the player must pick.
	g := arrange(t, map[int]string{21: "6C", 22: "7D", 23: "9H", 24: "7S", 25: "2H", 26: "5H", 27: "3H"}, "")
	require.EqualError(t, g.Do(auto(21)), "6♣ can pair with 7♦ or 7♠: pick one.")
	require.EqualError(t, g.Do(auto(23)), "9♥ has no free partner adding up to 13.")
	require.NoError(t, g.Do(pair(21, 24)))
	g2 := arrange(t, map[int]string{21: "6C", 22: "7D", 23: "9H", 24: "8S", 25: "2H", 26: "5H", 27: "3H"}, "")
	require.NoError(t, g2.Do(auto(21)))
	require.Equal(t, engine.NoCard, g2.st.slots[22])
}

func TestWinAndStuck(t *testing.T) {
	// "You win when every card is gone: the pyramid, the stock and the
	// waste." Build a deal the solver wins and play it out.
	for seed := uint64(1); seed < 50; seed++ {
		r := Solve(spec(seed), 300000)
		if r.Outcome != engine.Solved {
			continue
		}
		g, _ := New(spec(seed))
		for i, a := range r.Moves {
			require.False(t, g.Won())
			require.False(t, g.Stuck(), "move %d of a winning line", i)
			require.NoError(t, g.Do(a))
		}
		require.True(t, g.Won())
		require.False(t, g.Stuck())
		require.EqualError(t, g.Do(draw), "Every card is gone: the game is won.")
		return
	}
	t.Fatal("no deal solved")
}

func TestStuckRules(t *testing.T) {
	// Nothing pairs now: not stuck while an unseen stock card may help.
	g := arrange(t, map[int]string{21: "KC", 22: "KD"}, "")
	require.False(t, g.Stuck())
	// A position where every talon card is 10 or less without partner in
	// play: pyramid bottom row all 7s and 8s and 9... build by state.
	g.st = state{pass: 3, gone: 52 - 2}
	g.st.slots[0] = engine.MustCards("5C")[0]
	g.st.waste[0] = engine.MustCards("5D")[0]
	g.st.nWaste = 1
	require.True(t, g.Stuck(), "no pair, no turn, no redeal")
	g.st.pass = 2
	require.True(t, g.Stuck(), "redealing one seen card changes nothing")
	g.st.waste[0] = engine.MustCards("8D")[0]
	require.False(t, g.Stuck(), "8♦ pairs with 5♣")
	g.st.waste[0] = engine.NoCard
	g.st.nWaste = 0
	g.st.stock[0], g.st.stock[1] = engine.MustCards("5D")[0], engine.MustCards("8D")[0]
	g.st.nStock = 2
	g.st.pass = 1
	require.False(t, g.Stuck(), "unseen stock")
}

func TestText(t *testing.T) {
	s, err := Text(spec(1))
	require.NoError(t, err)
	g, _ := New(spec(1))
	lines := strings.Split(s, "\n")
	require.Equal(t, "            "+g.st.slots[0].ASCII(), lines[1])
	for _, c := range g.st.slots {
		require.Contains(t, s, c.ASCII())
	}
	t.Log("\n" + s)
}
