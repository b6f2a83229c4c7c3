package tripeaks

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
	"sshuffle/internal/gametest"
)

func spec(seed uint64) engine.Spec { return engine.Spec{Game: "tripeaks", Seed: seed} }

// arrange builds a deal with the given slot cards and stock (the waste
// starter first, then the cards in the order they will be turned); every
// other place gets the unused cards in deck order.
func arrange(t testing.TB, slots map[int]string, stock string) *Game {
	t.Helper()
	return newFromCards(spec(0), gametest.Arrange(t, slots, stock))
}

func play(i int) engine.Action { return engine.Action{Kind: engine.Move, From: i, To: WastePile} }

var draw = engine.Action{Kind: engine.Draw, From: StockPile}

func TestLayout(t *testing.T) {
	// Standard TriPeaks picture: each card of rows 0-2 lies under two cards
	// of the next row; neighbouring peaks share bottom-row cards.
	require.Equal(t, []int{3, 4}, cover[0])
	require.Equal(t, []int{5, 6}, cover[1])
	require.Equal(t, []int{7, 8}, cover[2])
	require.Equal(t, []int{9, 10}, cover[3])
	require.Equal(t, []int{10, 11}, cover[4])
	require.Equal(t, []int{12, 13}, cover[5])
	require.Equal(t, []int{16, 17}, cover[8])
	require.Equal(t, []int{18, 19}, cover[9])
	require.Equal(t, []int{26, 27}, cover[17])
	require.Equal(t, []int{3, 9, 15, 2, 4, 8, 10, 14, 16}, append(slotX[0:3:3], slotX[3:9]...))
	for i := 9; i < 18; i++ {
		require.Equal(t, 2*(i-9)+1, slotX[i])
		require.Equal(t, 2, slotY[i])
	}
	for i := 18; i < 28; i++ {
		require.Equal(t, 2*(i-18), slotX[i])
		require.Equal(t, 3, slotY[i])
	}
	g, err := New(spec(1))
	require.NoError(t, err)
	ps := g.Piles()
	require.Len(t, ps, 30)
	for i := range NumSlots {
		// "The top three rows (3, 6 and 9 cards) are face down; the bottom
		// row of 10 is face up."
		if i < 18 {
			require.Equal(t, 1, ps[i].FaceDown)
			require.Equal(t, []engine.Card{engine.NoCard}, ps[i].Cards)
			require.True(t, ps[i].Blocked)
		} else {
			require.Zero(t, ps[i].FaceDown)
			require.NotEqual(t, engine.NoCard, ps[i].Top())
		}
		require.Less(t, ps[i].X+2, 21)
	}
	// "The other 24 cards are the stock. Turn the top stock card face up
	// to start the waste pile."
	require.Equal(t, 23, ps[StockPile].FaceDown)
	require.Equal(t, "23", ps[StockPile].Label)
	require.Len(t, ps[WastePile].Cards, 1)
	for _, c := range ps[StockPile].Cards {
		require.Equal(t, engine.NoCard, c)
	}
}

func TestBadSpec(t *testing.T) {
	_, err := New(engine.Spec{Game: "pyramid"})
	require.Error(t, err)
	_, err = New(engine.Spec{Game: "tripeaks", Variant: "draw3"})
	require.Error(t, err)
	_, err = Text(engine.Spec{Game: "klondike"})
	require.Error(t, err)
}

func TestPlayOneHigherOrLower(t *testing.T) {
	// "Play any uncovered peak card that's one higher or one lower than the
	// top waste card. Suit doesn't matter. On a 7, play a 6 or an 8."
	// "Kings and aces connect (BVS Solitaire's rule): you can play an ace
	// on a king, and a king on an ace."
	cases := []struct {
		waste, card string
		ok          bool
		err         string
	}{
		{"7H", "6S", true, ""},
		{"7H", "8H", true, ""},
		{"7H", "8C", true, ""},
		{"7H", "5D", false, "5♦ can't go on 7♥: it must be one rank higher or lower."},
		{"7H", "9C", false, "9♣ can't go on 7♥: it must be one rank higher or lower."},
		{"7H", "7S", false, "7♠ can't go on 7♥: it must be one rank higher or lower."},
		{"KH", "AS", true, ""},
		{"AH", "KS", true, ""},
		{"KH", "QS", true, ""},
		{"AH", "2S", true, ""},
		{"KH", "2S", false, "2♠ can't go on K♥: it must be one rank higher or lower."},
		{"AH", "QS", false, "Q♠ can't go on A♥: it must be one rank higher or lower."},
	}
	for _, c := range cases {
		t.Run(c.waste+"_"+c.card, func(t *testing.T) {
			g := arrange(t, map[int]string{22: c.card}, c.waste)
			err := g.Do(play(22))
			if c.ok {
				require.NoError(t, err)
				require.Equal(t, c.card, g.st.wasteTop().ASCII())
			} else {
				require.EqualError(t, err, c.err)
				require.Equal(t, c.waste, g.st.wasteTop().ASCII())
			}
		})
	}
}

func TestKeepGoing(t *testing.T) {
	// "The played card becomes the new top of the waste pile, so you can
	// keep going: 7, 8, 9, 8, 7 and so on."
	g := arrange(t, map[int]string{18: "8C", 19: "9D", 20: "8H", 21: "7S"}, "7H")
	for _, i := range []int{18, 19, 20, 21} {
		require.NoError(t, g.Do(play(i)))
	}
	require.Equal(t, "7S", g.st.wasteTop().ASCII())
	// Run scores 1+2+3+4.
	require.Equal(t, 10, g.Score())
	require.Equal(t, 4, g.Moves())
}

func TestTurnsUp(t *testing.T) {
	// "A face-down card turns up once both cards lying over it are gone."
	g := arrange(t, map[int]string{9: "2C", 18: "8C", 19: "9D"}, "7H")
	require.EqualError(t, g.Do(play(9)), "That card is face down: it turns up once both cards over it are gone.")
	require.NoError(t, g.Do(play(18)))
	require.True(t, g.Piles()[9].Blocked, "one card still lies over it")
	require.Equal(t, engine.NoCard, g.Piles()[9].Top())
	require.NoError(t, g.Do(play(19)))
	p := g.Piles()[9]
	require.False(t, p.Blocked)
	require.Zero(t, p.FaceDown)
	require.Equal(t, "2C", p.Top().ASCII())
	require.EqualError(t, g.Do(play(18)), "That place is empty.")
}

func TestStockOnePass(t *testing.T) {
	// "When nothing fits, turn the next stock card onto the waste pile. You
	// go through the stock once; there's no redeal." "If the stock is gone
	// and nothing fits, the game is over."
	g := arrange(t, map[int]string{}, "")
	for range 23 {
		require.False(t, g.Stuck())
		require.NoError(t, g.Do(draw))
	}
	require.Equal(t, 24, g.st.nWaste)
	require.EqualError(t, g.Do(draw), "The stock is empty: TriPeaks goes through it only once.")
	fit := false
	for i := range NumSlots {
		if g.st.playable(i) == nil {
			fit = true
		}
	}
	require.Equal(t, !fit, g.Stuck())
	// Scoring: "Turning a card from the stock: -5".
	require.Equal(t, -5*23, g.Score())
}

func TestStuck(t *testing.T) {
	// The bottom row is 5s, Jacks and two 10s; the stock is every A, 2, 3,
	// 7, 8 and K: nothing ever fits, so the game ends once the stock is gone
	// ("If the stock is gone and nothing fits, the game is over").
	slots := map[int]string{}
	for i, c := range strings.Fields("5C 5D 5H 5S JC JD JH JS 10C 10D") {
		slots[18+i] = c
	}
	g := arrange(t, slots, "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 7C 7D 7H 7S 8C 8D 8H 8S KC KD KH KS")
	for range 23 {
		require.False(t, g.Stuck(), "cards are left to turn")
		require.NoError(t, g.Do(draw))
	}
	require.True(t, g.Stuck())
	require.False(t, g.Won())
	_, _, ok := g.Hint()
	require.False(t, ok)
}

func TestScoringTable(t *testing.T) {
	// "So long runs pay. A run of 10 cards scores 1 + 2 + ... + 10 = 55
	// points, while ten single cards between stock turns score 10."
	slots := map[int]string{}
	for i, c := range strings.Fields("2C 3C 4C 5C 6C 7C 8C 9C 10C JC") {
		slots[18+i] = c
	}
	g := arrange(t, slots, "AC")
	for i := 18; i < 28; i++ {
		require.NoError(t, g.Do(play(i)))
	}
	require.Equal(t, 55, g.Score())

	// Ten single cards, each after a stock turn ("-5, and the run starts
	// over"): 10 points for the cards, -50 for the turns.
	slots = map[int]string{}
	for i, c := range strings.Fields("2C 2D 2H 2S QC QD QH QS 9C 9D") {
		slots[18+i] = c
	}
	g = arrange(t, slots, "5C 3C 3D 3H 3S KC KD KH KS 10C 10D")
	for i := 18; i < 28; i++ {
		require.NoError(t, g.Do(draw))
		require.NoError(t, g.Do(play(i)))
		require.Equal(t, 1, g.st.run)
	}
	require.Equal(t, 10-50, g.Score(), "TriPeaks scores may go below 0")
}

func TestPeakBonusAndWin(t *testing.T) {
	// One run of all 28 cards, clearing the right peak, then the left, then
	// the middle: "Clearing the first peak 15, the second 15, the third 30"
	// on top of the run's 1 + 2 + ... + 28. "You win when all three peaks
	// are clear."
	order := []int{24, 25, 26, 27, 15, 16, 17, 7, 8, 2,
		18, 19, 20, 21, 9, 10, 11, 3, 4, 0,
		22, 23, 12, 13, 14, 5, 6, 1}
	slots := map[int]string{}
	for k, i := range order {
		slots[i] = engine.NewCard(engine.Rank(k%13+1), engine.Suit(k/13)).ASCII()
	}
	g := arrange(t, slots, "KS")
	for k, i := range order {
		require.False(t, g.Won())
		require.NoError(t, g.Do(play(i)), "card %d", k)
		switch k {
		case 9:
			require.Equal(t, 55+15, g.Score())
		case 19:
			require.Equal(t, 210+30, g.Score())
		}
	}
	require.Equal(t, 406+60, g.Score())
	require.True(t, g.Won())
	require.False(t, g.Stuck())
	require.EqualError(t, g.Do(draw), "All three peaks are clear: the game is won.")
	_, _, ok := g.Hint()
	require.False(t, ok)
}
