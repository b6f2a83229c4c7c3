package spider

import (
	"testing"

	"github.com/stretchr/testify/require"
	"sshuffle/engine"
)

var full = []string{} // no stock rows left

// Each case is one example from the rule texts; the comment quotes it.
func TestRuleExamples(t *testing.T) {
	cases := []struct {
		name string
		cols []string
		act  engine.Action
		err  string // "" = legal
		want map[int]string
	}{
		// 002 "Which cards are available": "a column ends with 10♠–9♠–8♠.
		// The 10♠ heads a three-card movable group, the 9♠ heads a two-card
		// movable group, and the 8♠ can move alone."
		{"10S heads a three-card group", []string{"4D | 10S 9S 8S", "JH"}, mv(0, 1, 1), "",
			map[int]string{0: "4D", 1: "JH TS 9S 8S"}},
		{"9S heads a two-card group", []string{"4D | 10S 9S 8S", "TH"}, mv(0, 2, 1), "",
			map[int]string{0: "4D | TS", 1: "TH 9S 8S"}},
		{"8S moves alone", []string{"4D | 10S 9S 8S", "9H"}, mv(0, 3, 1), "",
			map[int]string{0: "4D | TS 9S", 1: "9H 8S"}},
		// "If the column instead ends with 10♠–9♥–8♥, the 9♥–8♥ pair can
		// move together, but 10♠–9♥–8♥ cannot move as one group"
		{"9H-8H pair moves", []string{"4D | 10S 9H 8H", "10C"}, mv(0, 2, 1), "",
			map[int]string{0: "4D | TS", 1: "TC 9H 8H"}},
		{"10S-9H-8H does not move", []string{"4D | 10S 9H 8H", "JC"}, mv(0, 1, 1),
			"10♠ and 9♥ can't move together: a group must be one suit", nil},
		// "Face-down cards cannot be selected, even when their position is obvious."
		{"face-down card", []string{"4D | TS", "5C"}, mv(0, 0, 1), "That card is face down", nil},

		// "How single-card placement works" legal: 8♥ onto 9♣; Queen♠ onto
		// King♦; 4♣ onto 5♣; 10♦ onto Jack♥.
		{"8H onto 9C", []string{"8H", "9C"}, mv(0, 0, 1), "", map[int]string{0: "", 1: "9C 8H"}},
		{"QS onto KD", []string{"QS", "KD"}, mv(0, 0, 1), "", map[int]string{1: "KD QS"}},
		{"4C onto 5C", []string{"4C", "5C"}, mv(0, 0, 1), "", map[int]string{1: "5C 4C"}},
		{"10D onto JH", []string{"TD", "JH"}, mv(0, 0, 1), "", map[int]string{1: "JH TD"}},
		// Illegal: "8 onto 10, because the rank gap is two; 8 onto 8,
		// because ranks must descend; Jack onto 10, because that builds
		// upward; any card onto an Ace ...; a King onto a nonempty column"
		{"8 onto 10", []string{"8H", "TC"}, mv(0, 0, 1), "8♥ can't go on 10♣: it must go on a 9", nil},
		{"8 onto 8", []string{"8H", "8C"}, mv(0, 0, 1), "8♥ can't go on 8♣: it must go on a 9", nil},
		{"Jack onto 10", []string{"JH", "TC"}, mv(0, 0, 1), "J♥ can't go on 10♣: it must go on a Queen", nil},
		{"onto an Ace", []string{"2H", "AC"}, mv(0, 0, 1), "2♥ can't go on A♣: nothing goes on an Ace", nil},
		{"King onto a card", []string{"KH", "QC"}, mv(0, 0, 1), "K♥ can't go on Q♣: a King only moves into an empty column", nil},

		// "Jack♣–10♣–9♣–8♣. All four cards may move together onto a Queen of
		// any suit. The 10♣–9♣–8♣ subgroup may also move onto any Jack."
		{"JC-8C onto a Queen", []string{"5S | JC TC 9C 8C", "QH"}, mv(0, 1, 1), "",
			map[int]string{0: "5S", 1: "QH JC TC 9C 8C"}},
		{"TC-8C onto any Jack", []string{"5S | JC TC 9C 8C", "JD"}, mv(0, 2, 1), "",
			map[int]string{0: "5S | JC", 1: "JD TC 9C 8C"}},
		// "Jack♣–10♦–9♦–8♦. The 10♦–9♦–8♦ segment moves as a unit. The entire
		// four-card stack does not."
		{"TD-8D segment", []string{"5S | JC TD 9D 8D", "JS"}, mv(0, 2, 1), "",
			map[int]string{0: "5S | JC", 1: "JS TD 9D 8D"}},
		{"JC-TD... does not", []string{"5S | JC TD 9D 8D", "QS"}, mv(0, 1, 1),
			"J♣ and 10♦ can't move together: a group must be one suit", nil},

		// "one column ends with 9♠–8♥–7♥–6♥, while another exposes 10♥. The
		// 8♥–7♥–6♥ segment cannot jump directly onto 10♥ ... With an empty
		// column, move 8♥–7♥–6♥ into the space"
		{"8H-6H not onto 10H", []string{"9S 8H 7H 6H", "TH"}, mv(0, 1, 1), "8♥ can't go on 10♥: it must go on a 9", nil},
		{"8H-6H into the space", []string{"9S 8H 7H 6H", "TH", ""}, mv(0, 1, 2), "",
			map[int]string{0: "9S", 2: "8H 7H 6H"}},
		// "An empty column accepts any available single card or any legal
		// same-suit descending group ... There is no King-only restriction"
		{"single card into empty", []string{"KD 4C", ""}, mv(0, 1, 1), "", map[int]string{0: "KD", 1: "4C"}},

		// 000: "a column ends 9♠–8♥–7♥. The 7♥ is available as one card. The
		// 8♥–7♥ pair is available as a same-suit group. The three-card
		// 9♠–8♥–7♥ group is not available"
		{"7H alone", []string{"9S 8H 7H", "8C"}, mv(0, 2, 1), "", map[int]string{0: "9S 8H", 1: "8C 7H"}},
		{"8H-7H pair", []string{"9S 8H 7H", "9D"}, mv(0, 1, 1), "", map[int]string{0: "9S", 1: "9D 8H 7H"}},
		{"9S-8H-7H not", []string{"9S 8H 7H", "TD"}, mv(0, 0, 1), "9♠ and 8♥ can't move together: a group must be one suit", nil},
		// "Suppose 10♣ is exposed: 9♥ may be placed on it legally. 9♣ may also"
		{"9H on 10C", []string{"9H", "TC"}, mv(0, 0, 1), "", map[int]string{1: "TC 9H"}},
		{"9C on 10C", []string{"9C", "TC"}, mv(0, 0, 1), "", map[int]string{1: "TC 9C"}},
		// "Legal moving group: 8♦–7♦–6♦. Destination: any 9 ... Illegal
		// moving group: 8♦–7♣–6♣, because the internal suit changes."
		{"8D-6D onto any 9", []string{"8D 7D 6D", "9S"}, mv(0, 0, 1), "", map[int]string{1: "9S 8D 7D 6D"}},
		{"8D-7C-6C", []string{"8D 7C 6C", "9S"}, mv(0, 0, 1), "8♦ and 7♣ can't move together: a group must be one suit", nil},
		// 004: "A 7 of hearts with a 6 of spades on it can't [move together]:
		// you'd have to move the 6 first." "Any 6 can go on any 7."
		{"7H with 6S", []string{"7H 6S", "8H"}, mv(0, 0, 1), "7♥ and 6♠ can't move together: a group must be one suit", nil},
		{"any 6 on any 7", []string{"6D", "7S"}, mv(0, 0, 1), "", map[int]string{1: "7S 6D"}},
		// A deal can leave cards out of sequence; they never move together.
		{"out of sequence", []string{"9S 5S", "TH"}, mv(0, 0, 1), "9♠ and 5♠ can't move together: 5♠ is not one lower than 9♠", nil},

		// Odd input gets a sentence, not a panic.
		{"from stock", []string{"9S"}, engine.Action{Kind: engine.Move, From: 0, To: PileColumn}, "The stock deals whole rows: tap it to deal one", nil},
		{"from foundation", []string{"9S"}, engine.Action{Kind: engine.Move, From: 3, To: PileColumn}, "Completed runs stay off the table", nil},
		{"from nowhere", []string{"9S"}, engine.Action{Kind: engine.Move, From: 99, To: PileColumn}, "Pick a card in one of the ten columns", nil},
		{"from negative", []string{"9S"}, engine.Action{Kind: engine.Move, From: -1, To: PileColumn}, "Pick a card in one of the ten columns", nil},
		{"empty column", []string{"9S"}, mv(3, 0, 0), "That column is empty", nil},
		{"index too big", []string{"9S", "TS"}, mv(0, 1, 1), "There is no card there", nil},
		{"index negative", []string{"9S", "TS"}, mv(0, -1, 1), "There is no card there", nil},
		{"to stock", []string{"9S"}, engine.Action{Kind: engine.Move, From: PileColumn, To: 0}, "Cards can't go back to the stock", nil},
		{"to foundation", []string{"9S"}, engine.Action{Kind: engine.Move, From: PileColumn, To: 1}, "Only a complete King-to-Ace run of one suit goes off the table, and it leaves on its own", nil},
		{"to nowhere", []string{"9S"}, engine.Action{Kind: engine.Move, From: PileColumn, To: 40}, "Cards can only go on one of the ten columns", nil},
		{"to itself", []string{"9S"}, mv(0, 0, 0), "The cards are already in that column", nil},
		{"unknown kind", []string{"9S"}, engine.Action{Kind: 9}, "Spider has no such action", nil},
		{"auto nowhere", []string{"4C | 9S", "5D", "5D", "5D", "5D", "5D", "5D", "5D", "5D", "5D"}, auto(0, 1), "9♠ has nowhere to go", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := layout(t, full, tc.cols...)
			before := *g
			err := g.Do(tc.act)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				require.Equal(t, before.p, g.p)
				require.Equal(t, before.score, g.score)
				require.Empty(t, g.History())
				return
			}
			require.NoError(t, err)
			for c, want := range tc.want {
				require.Equal(t, want, colText(g, c), "column %d", c)
			}
			require.Equal(t, 499, g.Score())
			require.Equal(t, 1, g.Moves())
			require.True(t, g.Undo())
			require.Equal(t, before.p, g.p)
			require.Equal(t, 500, g.Score())
			require.Equal(t, 0, g.Moves())
		})
	}
}

// 002 "A complete worked example".
func TestWorkedExample(t *testing.T) {
	// "Column A: 9♣; Column B: 8♥–7♥–6♥; Column C: 5♥–4♥; Column D: 10♣;
	// Column E: empty; the remaining five columns are occupied."
	g := layout(t, []string{"2D 3D 4D 5D 6D 7D 8D 9D TD JD"},
		"9C", "8H 7H 6H", "5H 4H", "TC", "", "KS", "KS", "KS", "KS", "KS")
	// (with an empty column, no row may be dealt)
	require.EqualError(t, g.Do(draw), "Fill every empty column before dealing a row")
	// "1. Move the 8♥–7♥–6♥ group to Column A. This is legal because the
	// group is internally descending and same-suit, and its leading 8 fits
	// on the 9♣."
	require.NoError(t, g.Do(mv(1, 0, 0)))
	// "2. Column A now ends 9♣–8♥–7♥–6♥. The heart segment remains
	// movable, but the 9♣ cannot travel with it."
	require.Equal(t, "9C 8H 7H 6H", colText(g, 0))
	require.EqualError(t, g.Do(mv(0, 0, 3)), "9♣ and 8♥ can't move together: a group must be one suit")
	// "3. Use the empty column. Move 5♥–4♥ into Column E."
	require.NoError(t, g.Do(mv(2, 0, 4)))
	// "4. ... The 5♥–4♥ segment can later move onto 6♥, producing 8♥
	// through 4♥ as one movable unit."
	require.NoError(t, g.Do(mv(4, 0, 0)))
	require.Equal(t, "9C 8H 7H 6H 5H 4H", colText(g, 0))
	require.Equal(t, 1, g.p.runStart(0))
	// "5. Column E is no longer empty after step 3, so the formal
	// restriction is satisfied" - here B, C, E are empty again, so fill them.
	require.EqualError(t, g.Do(draw), "Fill every empty column before dealing a row")
	require.NoError(t, g.Do(mv(0, 5, 1)))
	require.NoError(t, g.Do(mv(0, 4, 2)))
	require.NoError(t, g.Do(mv(0, 3, 4)))
	require.NoError(t, g.Do(draw))
	require.Equal(t, "9C 8H 7H 2D", colText(g, 0))
	require.Equal(t, 500-7, g.Score())
	require.Equal(t, "0", g.Piles()[PileStock].Label)
	require.EqualError(t, g.Do(draw), "The stock is empty: there are no more rows to deal")
}

// 002 "How completed runs are removed": "King♠ through 9♠ in one column;
// 8♠ through 5♠ in another; 4♠ through Ace♠ in a third ... Once
// King♠–Queen♠–…–Ace♠ is exposed without a suit break, it leaves the
// tableau." "It may expose the next card, and it creates an empty column
// only when no cards remain underneath the run."
func TestRunRemoval(t *testing.T) {
	g := layout(t, full, "3H | KS QS JS TS 9S", "8S 7S 6S 5S", "4S 3S 2S AS", "2C")
	require.NoError(t, g.Do(mv(1, 0, 0)))
	require.NoError(t, g.Do(mv(2, 0, 0)))
	require.Equal(t, "3H", colText(g, 0))
	require.Equal(t, 0, int(g.p.down[0]), "the card under the run turns up")
	require.Equal(t, 1, int(g.p.runs))
	require.Equal(t, 500-2+100, g.Score())
	ps := g.Piles()
	require.Equal(t, engine.MustCards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"), ps[PileFoundation].Cards)
	require.Empty(t, ps[PileFoundation+1].Cards)
	require.Equal(t, "", colText(g, 2), "the column whose cards all left is empty")
	require.True(t, g.Undo())
	require.Equal(t, "3H | KS QS JS TS 9S 8S 7S 6S 5S", colText(g, 0))
	require.Equal(t, 499, g.Score(), "undo gives the points back")

	// "Counting a mixed King-to-Ace stack as complete: Removal requires one
	// continuous suit."
	g = layout(t, full, "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AH")
	require.NoError(t, g.Do(mv(1, 0, 0)))
	require.Equal(t, 0, int(g.p.runs))
	require.Equal(t, 13, int(g.p.n[0]))
}

// A deal can complete a run: it leaves at once.
func TestRunRemovedAfterDeal(t *testing.T) {
	g := layout(t, []string{"AS 2C 2C 2C 2C 2C 2C 2C 2C 2C"},
		"4D | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "5C", "5C", "5C", "5C", "5C", "5C", "5C", "5C", "5C")
	require.NoError(t, g.Do(draw))
	require.Equal(t, "4D", colText(g, 0))
	require.Equal(t, 1, int(g.p.runs))
	require.Equal(t, 500-1+100, g.Score())
}

// 004: "You start with 500 points, lose 1 for every move and gain 100 for
// every finished run ... here undo gives the point back." Never below 0.
func TestScoreFloor(t *testing.T) {
	g := layout(t, full, "9S", "TS")
	g.score = 0
	require.NoError(t, g.Do(mv(0, 0, 1)))
	require.Equal(t, 0, g.Score())
	require.True(t, g.Undo())
	require.Equal(t, 0, g.Score())
	g.score = 1
	require.NoError(t, g.Do(mv(0, 0, 1)))
	require.Equal(t, 0, g.Score())
	require.True(t, g.Undo())
	require.Equal(t, 1, g.Score())
	require.False(t, layout(t, full).Undo())
}

func TestAutoBestPlace(t *testing.T) {
	// same suit one higher beats any suit one higher beats an empty column
	g := layout(t, full, "KD 8S", "9H", "", "9S")
	require.NoError(t, g.Do(auto(0, 1)))
	require.Equal(t, "9S 8S", colText(g, 3))
	require.Equal(t, mv(0, 1, 3), g.History()[0])
	g = layout(t, full, "KD 8S", "9H", "")
	require.NoError(t, g.Do(auto(0, 1)))
	require.Equal(t, "9H 8S", colText(g, 1))
	g = layout(t, full, "KD 8S 7S", "", "5C")
	require.NoError(t, g.Do(auto(0, 1)))
	require.Equal(t, "8S 7S", colText(g, 1))
	// a whole column does not move to an empty one
	g = layout(t, full, "8S 7S", "", "5C")
	require.EqualError(t, g.Do(auto(0, 0)), "8♠-7♠ has nowhere to go")
	// Auto on the stock deals
	g = layout(t, []string{"2C 2C 2C 2C 2C 2C 2C 2C 2C 2C"}, "5C", "5C", "5C", "5C", "5C", "5C", "5C", "5C", "5C", "5C")
	require.NoError(t, g.Do(engine.Action{Kind: engine.Auto, From: PileStock}))
	require.Equal(t, []engine.Action{draw}, g.History())
}

func TestNewSpec(t *testing.T) {
	for _, bad := range []engine.Spec{{Game: "klondike"}, {Game: "spider", Variant: "3suit"}, {}} {
		_, err := New(bad)
		require.Error(t, err)
		_, err = Text(bad)
		require.Error(t, err)
	}
	g, err := New(engine.Spec{Game: "spider", Seed: 5})
	require.NoError(t, err)
	require.Equal(t, "1suit", g.Spec().Variant)
	for _, v := range []string{"1suit", "2suit", "4suit"} {
		g, err := New(engine.Spec{Game: "spider", Variant: v, Seed: 77})
		require.NoError(t, err)
		require.Equal(t, fullDeck(t, v), cardCount(g))
		// "Four columns begin with six cards each, and six columns begin
		// with five ... Only the top card of each opening column is face up."
		ps := g.Piles()
		require.Len(t, ps, 19)
		require.Equal(t, "5", ps[PileStock].Label)
		require.Equal(t, 50, ps[PileStock].FaceDown)
		for c := 0; c < numCols; c++ {
			p := ps[PileColumn+c]
			n := 5
			if c < 4 {
				n = 6
			}
			require.Len(t, p.Cards, n)
			require.Equal(t, n-1, p.FaceDown)
			for _, x := range p.Cards[:n-1] {
				require.Equal(t, engine.NoCard, x, "face-down cards never leak")
			}
			require.NotEqual(t, engine.NoCard, p.Top())
			require.Equal(t, 2*c, p.X)
		}
		for _, x := range ps[PileStock].Cards {
			require.Equal(t, engine.NoCard, x)
		}
	}
	suits := map[engine.Suit]int{}
	for c := range fullDeck(t, "2suit") {
		suits[c.Suit()]++
	}
	require.Equal(t, map[engine.Suit]int{engine.Spades: 13, engine.Hearts: 13}, suits)
}

func TestText(t *testing.T) {
	s, err := Text(engine.Spec{Game: "spider", Variant: "2suit", Seed: 1})
	require.NoError(t, err)
	require.Contains(t, s, "spider/2suit/1")
	require.Contains(t, s, " 1: [")
	require.Contains(t, s, "Stock rows")
	s2, _ := Text(engine.Spec{Game: "spider", Variant: "2suit", Seed: 1})
	require.Equal(t, s, s2)
}
