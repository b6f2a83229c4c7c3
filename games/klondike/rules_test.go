package klondike

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/engine"
)

var cards = engine.MustCards

func col(n int) int { return PileTableau0 + n - 1 }
func fnd(n int) int { return PileFoundation0 + n - 1 }
func mv(from, idx, to int) engine.Action {
	return engine.Action{Kind: engine.Move, From: from, Index: idx, To: to}
}

func mustLayout(t testing.TB, l Layout) *Game {
	t.Helper()
	g, err := NewFromLayout(l)
	require.NoError(t, err)
	return g
}

// Each case quotes the rule text it checks. want "" means legal; otherwise
// the exact sentence the player reads.
func TestRuleTextExamples(t *testing.T) {
	type tc struct {
		quote string
		l     Layout
		a     engine.Action
		want  string
	}
	onto := func(mover, target string) Layout {
		return Layout{Columns: [7][]engine.Card{cards(mover), cards(target)}}
	}
	cases := []tc{
		// 003 "Legal tableau moves"
		{"003: a black 8 on a red 9", onto("8C", "9H"), mv(col(1), 0, col(2)), ""},
		{"003: a red Queen on a black King", onto("QD", "KS"), mv(col(1), 0, col(2)), ""},
		{"003: a black 4 on a red 5", onto("4S", "5D"), mv(col(1), 0, col(2)), ""},
		{"003: a red 10 on a black Jack", onto("TH", "JC"), mv(col(1), 0, col(2)), ""},
		{"003: a black 8 on a black 9, because the colors do not alternate", onto("8C", "9S"), mv(col(1), 0, col(2)),
			"8♣ can't go on 9♠: both are black"},
		{"003: a red 8 on a black 10, because the rank gap is two", onto("8H", "TS"), mv(col(1), 0, col(2)),
			"8♥ can't go on 10♠: a column builds down one rank at a time, so it takes a red 9"},
		{"003: a red 9 on a black 8, because tableau order must descend", onto("9H", "8S"), mv(col(1), 0, col(2)),
			"9♥ can't go on 8♠: a column builds down one rank at a time, so it takes a red 7"},
		{"003: any non-King card into an empty column", Layout{Columns: [7][]engine.Card{cards("9S 8H")}}, mv(col(1), 1, col(2)),
			"Only a King can fill an empty column"},
		{"003: A club may go on a heart or diamond of the next higher rank", onto("6C", "7D"), mv(col(1), 0, col(2)), ""},

		// 003 "What may enter an empty column"
		{"003: a single black King", Layout{Columns: [7][]engine.Card{cards("2H KS")}}, mv(col(1), 1, col(2)), ""},
		{"003: a red King with a black Queen beneath it", Layout{Columns: [7][]engine.Card{cards("2H KH QS")}}, mv(col(1), 1, col(2)), ""},
		{"003: a black King–red Queen–black Jack sequence", Layout{Columns: [7][]engine.Card{cards("2H KC QD JS")}}, mv(col(1), 1, col(2)), ""},
		{"003: a Queen by itself", Layout{Columns: [7][]engine.Card{cards("2H QS")}}, mv(col(1), 1, col(2)),
			"Only a King can fill an empty column"},
		{"003: a Jack-led sequence", Layout{Columns: [7][]engine.Card{cards("2H JS TH")}}, mv(col(1), 1, col(2)),
			"Only a King-led run can fill an empty column"},
		{"003: a King followed by a Queen of the same color", Layout{Columns: [7][]engine.Card{cards("2H KH QD")}}, mv(col(1), 1, col(2)),
			"K♥ and Q♦ can't move together: both are red"},
		{"003: a face-down King", Layout{Columns: [7][]engine.Card{cards("KS 2H")}, FaceDown: [7]int{1}}, mv(col(1), 0, col(2)),
			"A face-down card can't move"},

		// 003 "How foundations work"
		{"003: A 5 of clubs may be placed only on the 4 of clubs foundation",
			Layout{Foundations: [4][]engine.Card{cards("AC 2C 3C 4C")}, Columns: [7][]engine.Card{cards("5C")}}, mv(col(1), 0, fnd(1)), ""},
		{"003: It cannot go on a 4 of spades, even though both suits are black",
			Layout{Foundations: [4][]engine.Card{cards("AS 2S 3S 4S")}, Columns: [7][]engine.Card{cards("5C")}}, mv(col(1), 0, fnd(1)),
			"5♣ can't go on 4♠: a foundation keeps to one suit"},
		{"003: A red Ace does not accept a black 2",
			Layout{Foundations: [4][]engine.Card{cards("AH")}, Columns: [7][]engine.Card{cards("2C")}}, mv(col(1), 0, fnd(1)),
			"2♣ can't go on A♥: a foundation keeps to one suit"},
		{"003: A card buried under another tableau card is not available merely because the foundation is ready",
			Layout{Foundations: [4][]engine.Card{cards("AH")}, Columns: [7][]engine.Card{cards("2H QS")}}, mv(col(1), 0, fnd(1)),
			"Only the top card of a column can go to a foundation"},
		{"003: ... or under the top waste card",
			Layout{Foundations: [4][]engine.Card{cards("AH")}, Waste: cards("2H QS")}, mv(PileWaste, 0, fnd(1)),
			"Only the top waste card can be played"},
		{"003: the exposed top card of a foundation may return to a legal tableau destination",
			Layout{Foundations: [4][]engine.Card{cards("AH 2H 3H 4H 5H")}, Columns: [7][]engine.Card{cards("6S")}}, mv(fnd(1), 4, col(1)), ""},
		{"003: It must satisfy the same descending, alternating-color rule",
			Layout{Foundations: [4][]engine.Card{cards("AH 2H 3H 4H 5H")}, Columns: [7][]engine.Card{cards("6D")}}, mv(fnd(1), 4, col(1)),
			"5♥ can't go on 6♦: both are red"},

		// 003 "How sequences move"
		{"003: the entire red-9-through-black-6 sequence may move onto [a black 10]",
			Layout{Columns: [7][]engine.Card{cards("9H 8S 7D 6C"), cards("TC")}}, mv(col(1), 0, col(2)), ""},
		{"003: the red 7 and black 6 could move together onto a black 8 elsewhere",
			Layout{Columns: [7][]engine.Card{cards("9H 8S 7D 6C"), cards("8C")}}, mv(col(1), 2, col(2)), ""},
		{"003: The black 6 alone could move onto a red 7",
			Layout{Columns: [7][]engine.Card{cards("9H 8S 7D 6C"), cards("7H")}}, mv(col(1), 3, col(2)), ""},
		{"003: Red 9–red 8 is illegal because the colors match",
			Layout{Columns: [7][]engine.Card{cards("9H 8D"), cards("TS")}}, mv(col(1), 0, col(2)),
			"9♥ and 8♦ can't move together: both are red"},
		{"003: Red 9–black 7 is illegal because the rank gap is two",
			Layout{Columns: [7][]engine.Card{cards("9H 7C"), cards("TS")}}, mv(col(1), 0, col(2)),
			"9♥ and 7♣ can't move together: a run goes down one rank at a time"},
		{"003: Face-down cards can never be included",
			Layout{Columns: [7][]engine.Card{cards("9H 8S 7D"), cards("TC")}, FaceDown: [7]int{1}}, mv(col(1), 0, col(2)),
			"A face-down card can't move"},

		// 000 "A five-question legality test" and "Klondike rules as a system"
		{"000: 7♣ may move onto 8♦", onto("7C", "8D"), mv(col(1), 0, col(2)), ""},
		{"000: It may not move onto 8♠ because both are black", onto("7C", "8S"), mv(col(1), 0, col(2)),
			"7♣ can't go on 8♠: both are black"},
		{"000: it may not move onto 9♦ because the rank gap is two", onto("7C", "9D"), mv(col(1), 0, col(2)),
			"7♣ can't go on 9♦: a column builds down one rank at a time, so it takes a black 8"},
		{"000: Q♥ may move onto K♣", onto("QH", "KC"), mv(col(1), 0, col(2)), ""},
		{"000: Q♥ may not move into an empty Klondike column", Layout{Columns: [7][]engine.Card{cards("2S QH")}}, mv(col(1), 1, col(3)),
			"Only a King can fill an empty column"},
		{"000: A red Jack accepts a black 10", onto("TS", "JD"), mv(col(1), 0, col(2)), ""},
		{"000: a black 10 accepts a red 9", onto("9D", "TS"), mv(col(1), 0, col(2)), ""},
		{"000: If 10♣–9♥–8♠ is selected, the 10♣ must move onto a red Jack",
			Layout{Columns: [7][]engine.Card{cards("TC 9H 8S"), cards("JH")}}, mv(col(1), 0, col(2)), ""},
		{"000: (10♣–9♥–8♠ onto a black Jack)",
			Layout{Columns: [7][]engine.Card{cards("TC 9H 8S"), cards("JS")}}, mv(col(1), 0, col(2)),
			"10♣ can't go on J♠: both are black"},
		{"000: Legal: K♠–Q♥–J♣ into an empty column",
			Layout{Columns: [7][]engine.Card{cards("2D KS QH JC")}}, mv(col(1), 1, col(2)), ""},
		{"000: Illegal: Q♥–J♣ into an empty column",
			Layout{Columns: [7][]engine.Card{cards("2D QH JC")}}, mv(col(1), 1, col(2)),
			"Only a King-led run can fill an empty column"},
		{"000: A 4♦ may go only onto 3♦",
			Layout{Foundations: [4][]engine.Card{cards("AD 2D 3D")}, Columns: [7][]engine.Card{cards("4D")}}, mv(col(1), 0, fnd(1)), ""},
		{"000: It cannot go onto 3♥",
			Layout{Foundations: [4][]engine.Card{cards("AH 2H 3H")}, Columns: [7][]engine.Card{cards("4D")}}, mv(col(1), 0, fnd(1)),
			"4♦ can't go on 3♥: a foundation keeps to one suit"},
		{"000: and it cannot begin an empty foundation",
			Layout{Columns: [7][]engine.Card{cards("4D")}}, mv(col(1), 0, fnd(1)),
			"Only an Ace can start a foundation"},
		{"000: The top waste card is available in Klondike", Layout{Waste: cards("5H 7C"), Columns: [7][]engine.Card{cards("8D")}},
			mv(PileWaste, 1, col(1)), ""},
		{"000: a visible card below it is not", Layout{Waste: cards("7C 5H"), Columns: [7][]engine.Card{cards("8D")}},
			mv(PileWaste, 0, col(1)), "Only the top waste card can be played"},

		// 004 "The moves"
		{"004: A red 7 goes on a black 8", onto("7D", "8C"), mv(col(1), 0, col(2)), ""},
		{"004: A black 7 goes on a red 8", onto("7S", "8H"), mv(col(1), 0, col(2)), ""},
		{"004: Any face-up card, along with everything on top of it, can move",
			Layout{Columns: [7][]engine.Card{cards("3D KS QH JC TD 9S"), cards("QD")}, FaceDown: [7]int{1}}, mv(col(1), 3, col(2)), ""},
		{"004: Aces start them, then the 2 of the same suit",
			Layout{Foundations: [4][]engine.Card{cards("AS")}, Waste: cards("2S")}, mv(PileWaste, 0, fnd(1)), ""},
	}
	for _, c := range cases {
		t.Run(c.quote, func(t *testing.T) {
			g := mustLayout(t, c.l)
			before := g.st.clone()
			err := g.Do(c.a)
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, c.want)
			require.True(t, before.equal(&g.st), "an illegal move must leave the state alone")
		})
	}
}

// 003 "Draw 1 stock and waste rules": "1. The stock turns a black 7. 2. The
// tableau contains a red 8, so the black 7 may move there. 3. Removing the 7
// exposes the prior waste card, a 2 of hearts. 4. If the Ace of hearts is
// already on its foundation, the 2 of hearts may now move to that
// foundation."
func TestDraw1Example(t *testing.T) {
	g := mustLayout(t, Layout{
		Stock: cards("7S"), Waste: cards("2H"),
		Foundations: [4][]engine.Card{cards("AH")}, Columns: [7][]engine.Card{cards("8D")},
	})
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.Equal(t, cards("2H 7S"), g.st.piles[PileWaste])
	require.EqualError(t, g.Do(mv(PileWaste, 0, fnd(1))), "Only the top waste card can be played")
	require.NoError(t, g.Do(mv(PileWaste, 1, col(1))))
	require.NoError(t, g.Do(mv(PileWaste, 0, fnd(1))))
	require.Equal(t, 15, g.Score())
}

// 003 "Draw 3 stock and waste rules": "Suppose the next three stock cards, in
// turn order, are a red 6, a black Jack, and the 3 of clubs. After they are
// turned, the 3 of clubs is on top. ... If the 3 of clubs has a legal
// destination and is moved, the black Jack becomes the top waste card. If
// the Jack is then moved, the red 6 becomes available." And "Fewer than
// three are turned when fewer than three remain."
func TestDraw3Example(t *testing.T) {
	g := mustLayout(t, Layout{
		Variant: "draw3",
		// The stock's top is last: 6♥ is turned first.
		Stock:       cards("9C 3C JS 6H"),
		Foundations: [4][]engine.Card{cards("AC 2C")},
		Columns:     [7][]engine.Card{cards("QD"), cards("7S")},
	})
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.Equal(t, cards("6H JS 3C"), g.st.piles[PileWaste])
	require.Equal(t, 3, g.Piles()[PileWaste].Show)
	require.EqualError(t, g.Do(mv(PileWaste, 1, col(1))), "Only the top waste card can be played")
	require.NoError(t, g.Do(mv(PileWaste, 2, fnd(1))))
	require.Equal(t, 2, g.Piles()[PileWaste].Show)
	require.NoError(t, g.Do(mv(PileWaste, 1, col(1))))
	require.NoError(t, g.Do(mv(PileWaste, 0, col(2))))
	require.Equal(t, 0, g.Piles()[PileWaste].Show)
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.Equal(t, cards("9C"), g.st.piles[PileWaste], "fewer than three remain: one is turned")
	require.Equal(t, 1, g.Piles()[PileWaste].Show)
}

// 003 "A complete worked example": "Column two ends with a black 10 above
// one hidden card. Column five shows a red 9–black 8–red 7 sequence. Column
// seven is empty. The top waste card is the King of hearts. The 3 of spades
// foundation is ready for the 4 of spades, which is exposed in column four.
// Several moves are legal."
func TestWorkedExample(t *testing.T) {
	build := func() *Game {
		return mustLayout(t, Layout{
			Waste:       cards("KH"),
			Foundations: [4][]engine.Card{cards("AS 2S 3S")},
			Columns: [7][]engine.Card{
				cards("KC"), cards("5D TS"), cards("KD"), cards("4S"), cards("2C 9H 8C 7D"), cards("QC"), nil,
			},
			FaceDown: [7]int{0, 1, 0, 0, 1, 0, 0},
		})
	}
	// "First, the red 9–black 8–red 7 sequence may move onto the black 10.
	// ... Moving the sequence uncovers the face-down card in column five,
	// which can then be turned face up."
	g := build()
	require.NoError(t, g.Do(mv(col(5), 1, col(2))))
	require.Equal(t, 0, g.st.down[col(5)])
	require.Equal(t, 5, g.Score(), "turning a face-down card scores 5")
	// "Second, the King of hearts may move from the waste into the empty column."
	g = build()
	require.NoError(t, g.Do(mv(PileWaste, 0, col(7))))
	require.Equal(t, 5, g.Score())
	// "No Queen or lower card could use that lane."
	require.EqualError(t, build().Do(mv(col(6), 0, col(7))), "Only a King can fill an empty column")
	// "Third, the 4 of spades may move to its suited foundation ... It could
	// not move to a club foundation, and it could not skip over the missing 3."
	g = build()
	require.NoError(t, g.Do(mv(col(4), 0, fnd(1))))
	require.Equal(t, 10, g.Score())
	g = mustLayout(t, Layout{Foundations: [4][]engine.Card{cards("AC 2C 3C"), cards("AS 2S")}, Columns: [7][]engine.Card{cards("4S")}})
	require.EqualError(t, g.Do(mv(col(1), 0, fnd(1))), "4♠ can't go on 3♣: a foundation keeps to one suit")
	require.EqualError(t, g.Do(mv(col(1), 0, fnd(2))), "4♠ can't go on 2♠: a foundation goes up one rank at a time")
}

// 004 "Standard scoring", each row, with docs/rules.md's "never below 0".
func TestScoringTable(t *testing.T) {
	// Waste pile to a column: 5. Waste pile to a foundation: 10.
	g := mustLayout(t, Layout{Waste: cards("AD 7C"), Columns: [7][]engine.Card{cards("8H")}})
	require.NoError(t, g.Do(mv(PileWaste, 1, col(1))))
	require.Equal(t, 5, g.Score())
	require.NoError(t, g.Do(mv(PileWaste, 0, fnd(1))))
	require.Equal(t, 15, g.Score())
	// Column to a foundation: 10, plus turning over a face-down card: 5.
	g = mustLayout(t, Layout{Columns: [7][]engine.Card{cards("9S AC")}, FaceDown: [7]int{1}})
	require.NoError(t, g.Do(mv(col(1), 1, fnd(1))))
	require.Equal(t, 15, g.Score())
	// Column to column: nothing.
	g = mustLayout(t, Layout{Columns: [7][]engine.Card{cards("9S"), cards("TH")}})
	require.NoError(t, g.Do(mv(col(1), 0, col(2))))
	require.Equal(t, 0, g.Score())
	// Foundation back down to a column: -15, never below 0, and Undo
	// restores the score from before the clamp.
	g = mustLayout(t, Layout{Foundations: [4][]engine.Card{cards("AH 2H")}, Columns: [7][]engine.Card{cards("3S")}, Score: 10})
	require.NoError(t, g.Do(mv(fnd(1), 1, col(1))))
	require.Equal(t, 0, g.Score())
	require.True(t, g.Undo())
	require.Equal(t, 10, g.Score())
	// Turning the waste back over (turn-one games): -100, never below 0.
	g = mustLayout(t, Layout{Waste: cards("5C 6C"), Score: 130})
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.Equal(t, 30, g.Score())
	require.Equal(t, cards("6C 5C"), g.st.piles[PileStock], "the waste is turned over in order, 5♣ is turned first again")
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.Equal(t, 0, g.Score())
	require.True(t, g.Undo())
	require.Equal(t, 30, g.Score())
	// Draw 3 recycles for free.
	g = mustLayout(t, Layout{Variant: "draw3", Waste: cards("5C 6C"), Score: 130})
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.Equal(t, 130, g.Score())
}

func TestDeal(t *testing.T) {
	g, err := New(engine.Spec{Game: "klondike", Seed: 7})
	require.NoError(t, err)
	require.Equal(t, 1, g.DrawCount())
	deck := engine.ShuffledDecks(7, 1)
	ps := g.Piles()
	require.Len(t, ps, NumPiles)
	require.Equal(t, "24", ps[PileStock].Label)
	require.Equal(t, 24, ps[PileStock].FaceDown)
	for _, c := range ps[PileStock].Cards {
		require.Equal(t, engine.NoCard, c)
	}
	n := 0
	for i := range 7 {
		p := ps[col(i+1)]
		require.Len(t, p.Cards, i+1)
		require.Equal(t, i, p.FaceDown)
		require.Equal(t, 2*i, p.X)
		require.Equal(t, 2, p.Y)
		require.Equal(t, engine.FanDown, p.Fan)
		for k := range i {
			require.Equal(t, engine.NoCard, p.Cards[k])
		}
		n += i + 1
		require.Equal(t, deck[n-1], p.Cards[i])
	}
	// deck[51] is the first card turned.
	require.NoError(t, g.Do(engine.Action{Kind: engine.Draw}))
	require.Equal(t, deck[51], g.Piles()[PileWaste].Top())
	for i := range 4 {
		require.Equal(t, 6+2*i, ps[fnd(i+1)].X)
	}

	g3, err := New(engine.Spec{Game: "klondike", Variant: "draw3", Seed: 7})
	require.NoError(t, err)
	require.Equal(t, engine.FanRight, g3.Piles()[PileWaste].Fan)

	for _, bad := range []engine.Spec{{Game: "freecell"}, {Game: "klondike", Variant: "draw2"}} {
		_, err := New(bad)
		require.Error(t, err)
		_, err = Text(bad)
		require.Error(t, err)
	}
	txt, err := Text(engine.Spec{Game: "klondike", Seed: 7})
	require.NoError(t, err)
	require.Contains(t, txt, "column 7:")
	require.Contains(t, txt, deck[51].String())
}

func TestOddInputsGetSentences(t *testing.T) {
	g, err := New(engine.Spec{Game: "klondike", Seed: 1})
	require.NoError(t, err)
	for _, a := range []engine.Action{
		{Kind: 9}, mv(-1, 0, 6), mv(99, 0, 6), mv(6, 0, 99), mv(6, -5, 7), mv(6, 100, 7),
		mv(PileStock, 0, 6), mv(PileWaste, 0, 6), mv(fnd(1), 0, 6), mv(6, 0, 6), mv(6, 0, PileStock), mv(6, 0, PileWaste),
		{Kind: engine.Auto, From: -3}, {Kind: engine.Auto, From: PileStock}, {Kind: engine.Auto, From: 7, Index: 0},
	} {
		before := g.st.clone()
		err := g.Do(a)
		require.Error(t, err, "%+v", a)
		require.NotContains(t, err.Error(), "\n")
		require.True(t, before.equal(&g.st))
	}
	g = mustLayout(t, Layout{})
	require.EqualError(t, g.Do(engine.Action{Kind: engine.Draw}), "The stock and the waste are both empty")
}

func TestAuto(t *testing.T) {
	g := mustLayout(t, Layout{
		Foundations: [4][]engine.Card{cards("AH")},
		Waste:       cards("2H"),
		Columns:     [7][]engine.Card{cards("3C 7C"), nil, cards("8D"), cards("8H"), cards("KS"), cards("9C JD")},
		FaceDown:    [7]int{1},
	})
	require.NoError(t, g.Do(engine.Action{Kind: engine.Auto, From: PileWaste}))
	require.Equal(t, 2, len(g.st.piles[fnd(1)]))
	// 7♣ fits 8♦ and 8♥: the leftmost card it fits.
	require.NoError(t, g.Do(engine.Action{Kind: engine.Auto, From: col(1), Index: 1}))
	require.Equal(t, cards("8D 7C"), g.st.piles[col(3)])
	require.Equal(t, mv(col(1), 1, col(3)), g.History()[1], "History records the resolved move")
	// A King alone in a column has nowhere better to go.
	require.EqualError(t, g.Do(engine.Action{Kind: engine.Auto, From: col(5)}), "K♠ has nowhere to go")
	require.EqualError(t, g.Do(engine.Action{Kind: engine.Auto, From: col(6), Index: 1}), "J♦ has nowhere to go")
	require.Error(t, g.Do(engine.Action{Kind: engine.Auto, From: fnd(1), Index: 1}))
}
